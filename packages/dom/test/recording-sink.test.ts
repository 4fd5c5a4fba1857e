import { describe, expect, it } from 'vitest';
import { NS, Parser, type ElementAttribute, type TreeSink } from '@sluice/tree-builder';
import {
  DomTreeSink,
  type Element,
  RecordingSink,
  parse,
  parseFragment,
  replayRecording,
  toIndentedTree,
  toTestFormat,
} from '../src/index.js';

const attr = (name: string, value: string): ElementAttribute => ({ name, value, namespace: null, prefix: null, localName: name });
const xlink: ElementAttribute = { name: 'xlink:href', value: '#a', namespace: NS.XLINK, prefix: 'xlink', localName: 'href' };

/** Drive a sink the way a tree builder would: doctype, quirks, nesting, foster-like insert, template, move. */
function script<N>(sink: TreeSink<N>): void {
  const doc = sink.document;
  sink.insertBefore(doc, sink.createDocumentType('html', '', '', { start: 0, end: 15 }), null);
  sink.setDocumentMode('limited-quirks');
  const html = sink.createElement('html', NS.HTML, [attr('lang', 'en')], { start: 15, end: 31 });
  sink.insertBefore(doc, html, null);
  const head = sink.createElement('head', NS.HTML, [], null);
  sink.insertBefore(html, head, null);
  sink.elementPopped?.(head, null);
  const body = sink.createElement('body', NS.HTML, [], null);
  sink.insertBefore(html, body, null);
  sink.addMissingAttributes(html, [attr('lang', 'fr'), attr('dir', 'rtl')]);
  const table = sink.createElement('table', NS.HTML, [], null);
  sink.insertBefore(body, table, null);
  sink.insertText(body, 'fostered', table, { start: 40, end: 48 });
  sink.insertText(body, ' more', table, { start: 48, end: 53 });
  expect(sink.parentNode(table)).toBe(body);
  const t = sink.createElement('template', NS.HTML, [], null);
  sink.insertBefore(body, t, null);
  const content = sink.templateContents(t);
  const svg = sink.createElement('svg', NS.SVG, [xlink], null);
  sink.insertBefore(content, svg, null);
  sink.insertBefore(content, sink.createComment('in template', null), null);
  const b = sink.createElement('b', NS.HTML, [], null);
  sink.insertBefore(body, b, null);
  sink.insertText(b, 'bold', null, null);
  const i = sink.createElement('i', NS.HTML, [], null);
  sink.moveChildren(b, i);
  sink.insertBefore(body, i, null);
  sink.remove(b);
  expect(sink.parentNode(b)).toBeNull();
  sink.elementPopped?.(i, { start: 90, end: 94 });
}

describe('RecordingSink', () => {
  it('records events as JSON lines that replay into the same DOM', () => {
    const streamed: string[] = [];
    const recorder = new RecordingSink({ onLine: (l) => streamed.push(l) });
    script(recorder);
    const lines = recorder.lines();
    expect(lines).toEqual(streamed);
    expect(lines[0]).toBe('{"op":"createDocumentType","id":1,"name":"html","publicId":"","systemId":"","location":{"start":0,"end":15}}');
    expect(lines).toContain('{"op":"setDocumentMode","mode":"limited-quirks"}');
    expect(lines).toContain('{"op":"insertText","parent":4,"data":"fostered","before":5,"location":{"start":40,"end":48}}');
    expect(lines.find((l) => l.includes('"localName":"template"'))).toBe(
      '{"op":"createElement","id":6,"localName":"template","namespace":"http://www.w3.org/1999/xhtml","attributes":[],"location":null,"contents":7}',
    );
    expect(lines.find((l) => l.includes('"localName":"svg"'))).toContain(
      `"attributes":[{"name":"xlink:href","value":"#a","namespace":"${NS.XLINK}","prefix":"xlink","localName":"href"}]`,
    );

    const direct = new DomTreeSink();
    script(direct);
    const replayed = new DomTreeSink();
    const handles = replayRecording(lines, replayed);
    expect(handles[0]).toBe(replayed.document);
    expect(toTestFormat(replayed.document)).toBe(toTestFormat(direct.document));
    expect(replayed.document.mode).toBe('limited-quirks');
    const bodyText = replayed.document.body!.firstChild!;
    expect(bodyText.sourceLocation).toEqual({ start: 40, end: 53 });
    expect((replayed.document.body!.lastChild as Element).endTagLocation).toEqual({ start: 90, end: 94 });
    expect(toTestFormat(direct.document)).toContain('"fostered more"');
  });

  it('does not keep lines when asked not to', () => {
    let n = 0;
    const recorder = new RecordingSink({ keepLines: false, onLine: () => n++ });
    script(recorder);
    expect(recorder.lines()).toEqual([]);
    expect(n).toBeGreaterThan(10);
  });

  it('rejects ids it did not hand out and non-templates', () => {
    const recorder = new RecordingSink();
    const div = recorder.createElement('div', NS.HTML, [], null);
    expect(() => recorder.insertBefore(0, 99, null)).toThrow(/99 is not a node id/);
    expect(() => recorder.templateContents(div)).toThrow(/not an HTML <template>/);
    expect(() => recorder.insertText(0, 'x', div, null)).toThrow(/not a child/);
  });

  it('replay names the bad event', () => {
    expect(() => replayRecording(['{"op":"remove","node":5}'], new DomTreeSink())).toThrow(/event 1: unknown node id 5/);
    expect(() => replayRecording(['{"op":"explode"}'], new DomTreeSink())).toThrow(/unknown op "explode"/);
  });
});

describe('RecordingSink with the parser', () => {
  // Inputs that make the tree builder use every sink method: adoption agency (moves, removes,
  // moveChildren), foster parenting (insertText/insertBefore with `before`), <html>/<body> attribute
  // merging, templates, foreign content, document modes, end tags.
  const inputs = [
    '<!DOCTYPE html><html lang=en><body class=a><p>One<p>Two',
    '<a href=x>1<p>2</a>3</p>',
    '<b>1<p>2</b>3</p>',
    '<table>x<tr>y<td>z</td></tr>w</table>',
    '<table><b>a<tr><td>b</td></tr>c</b></table>',
    '<html a=1><body b=2><html c=3><body d=4>x',
    '<template><tr><td>cell</template><template>t<div>u</div></template>',
    '<svg viewbox="0 0 1 1"><foreignObject><p>hi</foreignObject><use xlink:href=#a /></svg><math><mi>x</mi></math>',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>limited',
    '<p>no doctype: quirks<table><p>in table',
    '<!-- before --><html><!-- in --><head></head><body></body></html><!-- after -->',
    '<div><span>a</div>b</span>c',
    '<select><option>a<option>b</select><textarea>\nx</textarea><pre>\ny</pre>',
  ];
  for (const html of inputs) {
    it(`replays ${JSON.stringify(html)} into the same DOM as parsing directly`, () => {
      const recorder = new RecordingSink();
      new Parser(recorder).write(html).end();
      const replayed = new DomTreeSink();
      replayRecording(recorder.lines(), replayed);
      const direct = parse(html);
      expect(toTestFormat(replayed.document)).toBe(toTestFormat(direct));
      expect(replayed.document.mode).toBe(direct.mode);
      expect(toIndentedTree(replayed.document, { locations: true })).toBe(toIndentedTree(direct, { locations: true }));
    });
  }

  it('replays a fragment parse', () => {
    const html = '<td>a<b>b</td><td>c';
    const recorder = new RecordingSink();
    new Parser(recorder, { fragmentContext: { localName: 'tr', namespace: NS.HTML } }).write(html).end();
    const replayed = new DomTreeSink();
    replayRecording(recorder.lines(), replayed);
    // The tree builder parses a fragment into a root <html> it appends to the sink's document.
    expect(toTestFormat(replayed.document.documentElement!).split('\n').slice(1).map((l) => l.replace('|   ', '| ')).join('\n')).toBe(
      toTestFormat(parseFragment(html, 'tr')),
    );
  });
});
