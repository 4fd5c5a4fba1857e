/**
 * Inserted text next to source text (src/rewritable-units/boundaries.ts): whatever the source before it
 * ends in, the text stays the text it was, or the insertion is refused — a property over source tails
 * that end in every unfinished construct, checked by parsing; and examples through the rewriter.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from '@sluice/dom';
import { HTMLRewriter } from '@sluice/rewriter';
import { afterSource } from '../src/rewritable-units/boundaries.js';
import { type ContentContext, prepareContent } from '../src/rewritable-units/content.js';

/** Source text as it ends in each context: every unfinished construct a text token can end in. */
const tail = fc
  .array(fc.constantFrom('x', ' ', '&', '&am', '&#', '&#x3', '<', '</', '</sty', '</tit', '</scr', '<!', '<!-', '<!--', '-', '--', '<scr', '<SCRIPT', '\r', ']', '>', ';'), { maxLength: 4 })
  .map((parts) => parts.join(''));
const text = fc
  .array(fc.constantFrom('p;', 'a', ' ', '\n', 'le>', 'le x', 'ipt>', '-', '->', '>', '/', '/style>', '/title>', '!--', 'b>', '#32;', ';', '<', '&', 'é', '\u{1f600}'), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(''));

/** The element `element` of a parse of `html`, or null. */
function elementOf(html: string, element: string) {
  return parse(html).getElementsByTagName(element)[0] ?? null;
}

/**
 * Whether the source tail itself is text in that element — all of it, closed by the element's end tag —
 * as the last source text before an insertion always is (else the case does not arise).
 */
function tailIsText(element: string, t: string): boolean {
  const doc = parse(`<${element}>${t}</${element}><i>k</i>`);
  const el = doc.getElementsByTagName(element)[0];
  const i = doc.getElementsByTagName('i')[0];
  return el !== undefined && el.firstElementChild === null && el.childNodes.every((n) => n.nodeType === 3) && i !== undefined && i.textContent === 'k' && i.parentElement === doc.body;
}

function check(element: string, context: ContentContext, t: string, content: string): void {
  if (!tailIsText(element, t)) return;
  let written: string;
  try {
    written = afterSource(t, prepareContent(content, undefined, context, 'test'), context, 'test');
  } catch (err) {
    // Refused: only in raw text and script data, where no reference can keep them apart.
    expect(context === 'script' || context === 'style' || context === 'rawtext' || /cannot be inserted/.test((err as Error).message)).toBe(true);
    return;
  }
  const html = `<${element}>${t}${written}</${element}><p>after`;
  const doc = parse(html);
  const el = doc.getElementsByTagName(element)[0]!;
  // References in ordinary content and RCDATA; none in raw text.
  const before = elementOf(`<${element}>${t}</${element}>`, element)!.textContent!;
  // In raw text the text is what was written, escapes and all (a script's `<\/` is JavaScript's `</`),
  // newlines normalized as the input stream normalizes them (§13.2.3.5; a CR there cannot be kept).
  if (context === 'data') expect(el.textContent).toBe(before + content.replace(/\r\n?/g, '\n'));
  else expect(el.textContent).toBe((t + written).replace(/\r\n?/g, '\n'));
  expect(doc.getElementsByTagName('p').at(-1)!.outerHTML).toBe('<p>after</p>');
}

describe('inserted text next to source text', () => {
  it('stays text, or is refused (fast-check: data, RCDATA, raw text, script data)', () => {
    fc.assert(
      fc.property(tail, text, (t, content) => {
        check('p', 'data', t, content);
        check('title', 'data', t, content);
        check('style', 'style', t, content);
        check('xmp', 'rawtext', t, content);
        check('script', 'script', t, content);
      }),
      { numRuns: 3000 },
    );
  });

  it('through the rewriter: after a text chunk, before an element, at an element\'s end', async () => {
    const run = async (input: string, setup: (r: HTMLRewriter) => void): Promise<string> => {
      const r = new HTMLRewriter();
      setup(r);
      let out = '';
      const tr = r.createTransformer((s) => (out += s));
      await tr.write(input);
      await tr.end();
      return out;
    };
    // `&am` + `p;` would be the reference &amp;.
    expect(await run('<p>&am<i>x</i></p>', (r) => r.on('i', { element: (e) => void e.before('p;') }))).toBe('<p>&am&#112;;<i>x</i></p>');
    expect(parse('<p>&am&#112;;<i>x</i></p>').body!.textContent).toBe('&amp;x');
    // A text chunk's `after`, in a <title>: `</tit` + `le x` would end the title.
    expect(await run('<title>a</tit</title>', (r) => r.on('title', { text: (t) => void (t.text.endsWith('</tit') && t.after('le x')) }))).toBe('<title>a</tit&#108;e x</title>');
    // In a <style> no reference exists: refused.
    await expect(run('<style>a</sty</style>', (r) => r.on('style', { text: (t) => void (t.text.endsWith('</sty') && t.after('le>')) }))).rejects.toThrow(/would make "<\/sty"/);
    // Text ending in `<` appended to a script would join the source's `</script>`? No: `<` + `</script>`
    // is harmless, but `<scr` could become `<script` with the source after it.
    await expect(run('<script>a</script>', (r) => r.on('script', { element: (e) => void e.append('x<scr') }))).rejects.toThrow(/text ending in "<scr"/);
    expect(await run('<script>a</script>', (r) => r.on('script', { element: (e) => void e.append('a<b') }))).toBe('<script>aa<b</script>');
  });

  it('reads the same source tail however the chunks cut it into tokens (`&0` + `0` is `&00`)', async () => {
    const run = async (chunks: string[], append: string): Promise<string> => {
      let out = '';
      const t = new HTMLRewriter().onDocument({ end: (e) => void e.append(append) }).createTransformer((s) => (out += s));
      for (const c of chunks) await t.write(c);
      await t.end();
      return out;
    };
    const cutsOf = (s: string): string[][] => [[s], [s.slice(0, 3), s.slice(3)], Array.from(s)];
    // The tokenizer settles `&0` as text before the next chunk (no reference begins `&0`) and emits it:
    // the tail is `&00` still, and the rule (`&` and [A-Za-z0-9#]: maybe a reference) writes a reference.
    for (const chunks of cutsOf('<p>&00')) expect(await run(chunks, '∎')).toBe('<p>&00&#8718;');
    // `&not` + `in;` would be the reference &notin; (∉) instead of ¬ and "in;".
    for (const chunks of cutsOf('<p>&not')) {
      const out = await run(chunks, 'in;');
      expect(out).toBe('<p>&not&#105;n;');
      expect(parse(out).body!.textContent).toBe('¬in;');
    }
    // `&#` and any number of digits is one reference: 60 zeros then `65` would be "A".
    const zeros = `<p>&#${'0'.repeat(60)}`;
    for (const chunks of cutsOf(zeros)) {
      const out = await run(chunks, '65');
      expect(out).toBe(`${zeros}&#54;5`);
      expect(parse(out).body!.textContent).toBe(parse(zeros).body!.textContent + '65');
    }
    // Text that is no reference's start is written as it is, however it was cut.
    for (const chunks of cutsOf('<p>hello world, abcdefghijklmnopqrstuvwxyz0123456789')) expect((await run(chunks, '!')).endsWith('9!')).toBe(true);
  });
});
