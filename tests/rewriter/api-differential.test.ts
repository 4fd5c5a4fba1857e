/**
 * Workers code ports unchanged: the same handler code, run by sluice and by lol-html (Cloudflare's
 * engine, through html-rewriter-wasm), gives the same output and the same handler calls — on documents
 * where lol-html's token-level view and the tree agree (explicit tags, no implied ends). Scenarios with
 * `*` write <html>, <head> and <body> out: sluice's handlers also fire on the implied ones, which
 * lol-html, reading tags only, does not see.
 */
import { describe, expect, it } from 'vitest';
import type { HTMLRewriter } from '@sluice/rewriter';
import { type CommonRewriter, runLolHtml } from './helpers/lol-html.js';
import { runRewriter } from './helpers/run.js';

type Setup = (r: CommonRewriter, log: unknown[]) => void;

/* eslint-disable @typescript-eslint/no-explicit-any */
const SCENARIOS: [string, string | string[], Setup][] = [
  ['mutation order around an element', '<div>x</div>', (r) => r.on('div', { element(e: any) { e.append('A1'); e.after('F1'); e.before('B1'); e.prepend('P1'); e.onEndTag((t: any) => { t.before('TB'); t.after('TA'); }); e.append('A2'); e.after('F2'); e.before('B2'); e.prepend('P2'); } })],
  ['remove keeps before/after', '<div>x</div>', (r) => r.on('div', { element(e: any) { e.before('B'); e.after('F'); e.prepend('P'); e.append('A'); e.remove(); } })],
  ['removeAndKeepContent', '<div>x</div>', (r, log) => r.on('div', { element(e: any) { e.before('B'); e.after('F'); e.prepend('P'); e.append('A'); e.removeAndKeepContent(); log.push(e.removed); } })],
  ['replace twice', '<div>x</div>', (r, log) => r.on('div', { element(e: any) { e.before('B'); e.after('F'); e.prepend('P'); e.append('A'); e.replace('R'); e.replace('R2'); log.push(e.removed); } })],
  ['setInnerContent', '<div>x<b>y</b></div>', (r) => r.on('div', { element(e: any) { e.before('B'); e.after('F'); e.prepend('P'); e.append('A'); e.setInnerContent('I'); e.setInnerContent('I2'); e.onEndTag((t: any) => t.before('TB')); } })],
  ['html content', '<div>x</div>', (r) => r.on('div', { element(e: any) { e.before('<i>b</i>', { html: true }); e.append('<u>&amp;</u>', { html: true }); e.after('<x>', { html: false }); } })],
  ['text replace', '<div>abc</div>', (r) => r.on('div', { text(t: any) { if (t.text) { t.before('B'); t.after('F'); t.after('G'); t.replace('R'); t.replace('R2'); } } })],
  ['text remove', '<p>a<b>b</b>c</p>', (r) => r.on('b', { text(t: any) { t.remove(); } })],
  ['comments', '<!--a--><!--b--><!--c-->', (r, log) => r.onDocument({ comments(c: any) { log.push(c.text); if (c.text === 'a') { c.before('B'); c.after('F'); c.replace('R'); } else if (c.text === 'b') { c.text = 'zz'; c.after('<i>', { html: true }); } else c.remove(); } })],
  ['descendants of a removed element', '<div><p>x</p></div>y', (r, log) => { r.on('div', { element(e: any) { e.remove(); } }); r.on('p', { element(e: any) { log.push('p'); e.after('PA'); e.before('PB'); }, text(t: any) { log.push(['t', t.text]); } }); }],
  ['void elements', '<br>x<img src=a>', (r) => r.on('br,img', { element(e: any) { e.append('A'); e.prepend('P'); e.setInnerContent('I'); e.after('F'); e.before('B'); } })],
  ['document end', '<p>x</p>', (r) => r.onDocument({ end(e: any) { e.append('1'); e.append('<b>', { html: true }); e.append('<c>'); } })],
  ['text chunks and lastInTextNode', '<div>a<span>b &amp; c</span>d</div>e', (r, log) => r.on('div', { text(t: any) { log.push([t.text, t.lastInTextNode]); } })],
  ['text across input chunks', ['<div>ab', 'cd', 'ef</div>'], (r, log) => r.on('div', { text(t: any) { log.push([t.text, t.lastInTextNode]); } })],
  ['handler order', '<html><head></head><body><div>x<!--c--></div></body></html>', (r, log) => { r.onDocument({ text(t: any) { log.push('doc:' + t.text); }, comments() { log.push('doc-c'); } }); r.on('div', { text(t: any) { log.push('el:' + t.text); }, comments() { log.push('el-c'); } }); r.on('*', { element(e: any) { log.push('any:' + e.tagName); } }); r.on('div', { element(e: any) { log.push('div:' + e.tagName); } }); r.onDocument({ text(t: any) { log.push('doc2:' + t.text); } }); }],
  ['escaping of text in ordinary content', '<div>x</div><title>t</title>', (r) => r.on('div,title', { element(e: any) { e.append('<&>"\'</x>'); e.before('&'); } })],
  ['setAttribute and attribute reads', '<a href="/x" data-k=v class=c>', (r, log) => r.on('a', { element(e: any) { log.push([...e.attributes], e.getAttribute('HREF'), e.hasAttribute('class'), e.hasAttribute('nope'), e.getAttribute('nope')); e.setAttribute('href', 'https://e.x/?a="b"'); e.removeAttribute('class'); e.setAttribute('new', 'v'); } })],
  ['tagName', '<div id=1>x</div>', (r, log) => r.on('div', { element(e: any) { log.push(e.tagName); e.tagName = 'section'; log.push(e.tagName); } })],
  ['end tag name', '<div>x</div>', (r, log) => r.on('div', { element(e: any) { e.onEndTag((t: any) => { log.push(t.name); t.name = 'span'; t.before('B'); t.after('A'); }); } })],
  ['end tag remove', '<div>x</div>y', (r) => r.on('div', { element(e: any) { e.onEndTag((t: any) => { t.remove(); }); } })],
  ['doctype', '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><p>', (r, log) => r.onDocument({ doctype(d: any) { log.push([d.name, d.publicId, d.systemId]); } })],
  ['async handlers keep order', '<p>1</p><p>2</p><p>3</p>', (r, log) => r.on('p', { async element(e: any) { await new Promise((res) => setTimeout(res, 3)); log.push('p'); e.append('!'); }, async text(t: any) { await Promise.resolve(); log.push(t.text); } })],
  ['namespaceURI', '<svg><rect/></svg><math></math>', (r, log) => r.on('svg, rect, math', { element(e: any) { log.push(e.namespaceURI); } })],
  ['selectors of the lol-html set', '<html><head></head><body><div class="a b" id=x lang=en-US><p>1</p><p title=Hi>2</p><ul><li>a</li><li>b</li><li>c</li></ul></div></body></html>', (r, log) => {
    for (const s of ['*', 'p', '.b', '#x', '[title]', '[title=hi i]', '[title=hi s]', '[class~=b]', '[lang|=en]', '[title^=H]', '[title$=i]', '[title*=i]', 'div p', 'div > ul > li', 'li:nth-child(2n+1)', 'p:first-child', 'li:nth-of-type(2)', 'p:first-of-type', 'li:not(:first-child)']) {
      r.on(s, { element(e: any) { log.push([s, e.tagName]); } });
    }
  }],
];

describe('same results as lol-html (html-rewriter-wasm)', () => {
  for (const [name, input, setup] of SCENARIOS) {
    it(name, async () => {
      const chunks = typeof input === 'string' ? [input] : input;
      const theirLog: unknown[] = [];
      const theirs = await runLolHtml((r) => setup(r, theirLog), chunks);
      const ourLog: unknown[] = [];
      const ours = await runRewriter((r: HTMLRewriter) => setup(r as unknown as CommonRewriter, ourLog), chunks);
      expect(ours.out).toBe(theirs);
      expect(ourLog).toEqual(theirLog);
    });
  }
});
