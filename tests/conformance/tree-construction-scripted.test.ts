// The html5lib tree-construction tests that need a script engine (tree-construction/scripted/*.dat).
// Scripts run at `</script>` through the tree builder's `onScript` hook: the script's text is evaluated
// with `new Function('document', text)` against a small document object backed by @sluice/dom
// (getElementById, getElementsByTagName; elements are the DOM's own, with `id` and `setAttribute`), and
// `document.write` goes to `control.write`, which the tokenizer reads before the rest of the input —
// including markup written by a script that itself came from document.write (webkit01.dat test 2).
import { describe, expect, it } from 'vitest';
import { DomTreeSink, toTestFormat, type Document, type Element, type Node } from '@sluice/dom';
import { Parser } from '@sluice/tree-builder';
import { readDatFiles, treeConstructionDir, html5libTestsDir } from '../../packages/tree-builder/test/support/html5lib-tree-tests.js';

const dir = treeConstructionDir('scripted');

/** Parse `html` running its scripts; returns the document. */
function parseWithScripts(html: string): Document {
  const sink = new DomTreeSink();
  const document = sink.document;
  const parser = new Parser<Node>(sink, {
    scripting: true,
    onScript(script, control) {
      const api = {
        getElementById: (id: string) => document.getElementById(id),
        getElementsByTagName: (name: string) => document.getElementsByTagName(name),
        write: (markup: string) => control.write(String(markup)),
      };
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      new Function('document', (script as Element).textContent ?? '')(api);
    },
  });
  parser.write(html);
  parser.end();
  return document;
}

describe('html5lib tree-construction, scripted', () => {
  if (dir === null) {
    if (process.env.CI) {
      it('finds the html5lib tests', () => {
        throw new Error(`html5lib scripted tree-construction tests not found under ${html5libTestsDir()}`);
      });
    } else {
      it.skip(`html5lib scripted tests not found under ${html5libTestsDir()} (set HTML5LIB_TESTS)`, () => {});
    }
    return;
  }
  const all = [...readDatFiles(dir).values()].flat();
  it('has the scripted tests', () => {
    expect(all.length).toBeGreaterThanOrEqual(4);
  });
  for (const test of all) {
    it(`${test.file} #${test.index}: ${JSON.stringify(test.data).slice(0, 80)}`, () => {
      expect(toTestFormat(parseWithScripts(test.data))).toBe(test.document);
    });
  }

  it('runs a script written by document.write before the rest of the input', () => {
    const doc = parseWithScripts('<p>a<script>document.write("<b>b</b><script>document.write(\\"c\\")</scr"+"ipt>")</script>d');
    expect(toTestFormat(doc)).toContain('"cd"');
  });
});
