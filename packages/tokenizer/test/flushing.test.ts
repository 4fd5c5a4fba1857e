/**
 * Text is emitted as soon as it is known to be text; at the end of a chunk only what may still change
 * meaning is held back.
 */

import { describe, expect, it } from 'vitest';
import { Tokenizer } from '../src/index.js';
import { recorder } from './helpers.js';

describe('text flushing at chunk boundaries', () => {
  it('emits text before a possible character reference at once, and holds the reference', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('a&am', r.emit);
    expect(r.take()).toEqual(['text:data:"a"@0']);
    t.write('p;b', r.emit);
    expect(r.take()).toEqual(['text:data:"&amp;b"@1']);
    expect(r.all.map((x) => (x.type === 'text' ? x.value : '')).join('')).toBe('a&b');
  });

  it('flushes a reference as soon as it is complete or dead', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('&amp;', r.emit); // a name never continues past `;`
    expect(r.take()).toEqual(['text:data:"&amp;"@0']);
    t.write('&xyz', r.emit); // no name starts with `xy`: plain text
    expect(r.take()).toEqual(['text:data:"&xyz"@5']);
    t.write('&notin', r.emit); // `&notin` may still become `&notin;`
    expect(r.take()).toEqual([]);
    t.write('x', r.emit); // … it did not: `&not` + `inx`
    expect(r.take()).toEqual(['text:data:"&notinx"@9']);
    t.write('&#x4', r.emit);
    expect(r.take()).toEqual([]);
    t.write('1', r.emit);
    expect(r.take()).toEqual([]);
    t.end(r.emit);
    expect(r.take()).toEqual(['text:data:"&#x41"@16']);
  });

  it('holds an undecided < and nothing before it', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('x<', r.emit);
    expect(r.take()).toEqual(['text:data:"x"@0']);
    t.write('b>', r.emit);
    expect(r.take()).toEqual(['startTag:"<b>"@1']);
    t.write('y<', r.emit);
    expect(r.take()).toEqual(['text:data:"y"@4']);
    t.write(' ', r.emit); // `< ` is text
    expect(r.take()).toEqual(['text:data:"< "@5']);
  });

  it('holds a final CR, which may start a CRLF pair', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('a\r', r.emit);
    expect(r.take()).toEqual(['text:data:"a"@0']);
    t.write('\nb', r.emit);
    expect(r.take()).toEqual(['text:data:"\\r\\nb"@1']);
    expect(r.all[1]).toMatchObject({ value: '\nb' });
  });

  it('holds a final high surrogate, which may start a surrogate pair', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('a\uD83D', r.emit);
    expect(r.take()).toEqual(['text:data:"a"@0']);
    t.write('\uDE00', r.emit);
    expect(r.take()).toEqual(['text:data:"😀"@1']);
  });

  it('holds an end tag candidate in RCDATA, RAWTEXT and script data, and lets it go when it fails', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('<title>a</tit', r.emit);
    expect(r.take()).toEqual(['startTag:"<title>"@0', 'text:rcdata:"a"@7']);
    t.write('x', r.emit); // `</titx`: not the appropriate end tag, so text
    expect(r.take()).toEqual(['text:rcdata:"</titx"@8']);
    t.write('</title', r.emit);
    expect(r.take()).toEqual([]);
    t.write('>', r.emit);
    expect(r.take()).toEqual(['endTag:"</title>"@14']);

    t.write('<style>a</', r.emit);
    expect(r.take()).toEqual(['startTag:"<style>"@22', 'text:rawtext:"a"@29']);
    t.write('b</style>', r.emit);
    expect(r.take()).toEqual(['text:rawtext:"</b"@30', 'endTag:"</style>"@33']);
  });

  it('does not hold script-data escapes: they are text whatever follows', () => {
    const r = recorder();
    const t = new Tokenizer();
    t.write('<script>a<!--', r.emit);
    expect(r.take()).toEqual(['startTag:"<script>"@0', 'text:scriptData:"a<!--"@8']);
    t.write('<script>x-', r.emit); // double escaped now: `</script>` will not end the script
    expect(r.take()).toEqual(['text:scriptData:"<script>x-"@13']);
    t.write('</script>', r.emit);
    expect(r.take()).toEqual(['text:scriptData:"</script>"@23']);
    t.write('--></script', r.emit); // back to script data: this one is a candidate again
    expect(r.take()).toEqual(['text:scriptData:"-->"@32']);
    t.write('>', r.emit);
    expect(r.take()).toEqual(['endTag:"</script>"@35']);
  });

  it('holds `]` and `]]` in a CDATA section', () => {
    const r = recorder();
    const t = new Tokenizer({ cdataAllowed: () => true });
    t.write('<![CDATA[a]]', r.emit);
    expect(r.take()).toEqual(['discarded:"<![CDATA["@0', 'text:cdata:"a"@9']);
    t.write(']', r.emit); // `]]]`: the first `]` is text now; `]]` may still end the section
    expect(r.take()).toEqual(['text:cdata:"]"@10']);
    t.write('>b', r.emit);
    expect(r.take()).toEqual(['discarded:"]]>"@11', 'text:data:"b"@14']);
  });

  it('emits an unfinished tag, comment or DOCTYPE once, whole, when it ends', () => {
    const r = recorder();
    const t = new Tokenizer();
    for (const c of '<a href="x">') t.write(c, r.emit);
    expect(r.take()).toEqual(['startTag:"<a href=\\"x\\">"@0']);
    for (const c of '<!-- c -->') t.write(c, r.emit);
    expect(r.take()).toEqual(['comment:"<!-- c -->"@12']);
    t.write('<!DOCTYPE html', r.emit);
    expect(r.take()).toEqual([]);
    t.end(r.emit);
    expect(r.take()).toEqual(['doctype:"<!DOCTYPE html"@22']);
  });
});
