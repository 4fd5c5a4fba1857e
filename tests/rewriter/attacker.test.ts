/**
 * What an attacker would try (issue 20 item 3): documents with every construct, cut off at any point;
 * payloads written to close every context they may land in; every way a handler inserts text or sets a
 * value. The property: the output, parsed again by sluice with scripting on and with scripting off, has
 * no element, attribute or comment that a handler did not create as such — the payload stays text (or
 * an attribute value), wherever it went. A refusal (an Error that names why the text cannot be written
 * there) is an allowed outcome; a silently wrong output is not.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Comment, Element, type Node, HTMLTemplateElement, nextInSubtree, parse } from '@sluice/dom';
import { HTMLRewriter } from '@sluice/rewriter';
import { tagSoup } from './helpers/soup.js';

/** The marker an escape would show up as: an element `x-pwn`, an attribute `pwn`, a comment with `PWN`. */
const PAYLOADS = [
  '<x-pwn pwn=1>',
  '</script><x-pwn pwn>',
  '</style><x-pwn pwn>',
  '</title><x-pwn pwn>',
  '</textarea><x-pwn pwn>',
  '</noscript><x-pwn pwn>',
  '</xmp><x-pwn pwn>',
  '</iframe><x-pwn pwn>',
  '</noembed><x-pwn pwn>',
  '</noframes><x-pwn pwn>',
  '</plaintext><x-pwn pwn>',
  '--><x-pwn pwn><!--PWN',
  '--!><x-pwn pwn>',
  ']]><x-pwn pwn>',
  '"><x-pwn pwn>',
  "'><x-pwn pwn>",
  ' pwn=1 x="',
  '<!--PWN-->',
  '<!--<script>',
  '<script><x-pwn pwn>',
  '<![CDATA[<x-pwn pwn>]]>',
  'p;<x-pwn pwn>',
  '\r\n<x-pwn pwn>',
  'ipt><x-pwn pwn>',
  'le><x-pwn pwn>',
];

const CONSTRUCTS = [
  '<p title="a b">x</p>', '<!-- c -- d -->', '<!DOCTYPE html>', '<svg><![CDATA[ a ]] ]]><desc>d</desc></svg>', '<math><mi>m</mi></math>',
  '<script>a<!--<script>b</script>c-->d</script>', '<title>t&amp;</title>', '<textarea>a</textarea>', '<style>s</style>', '<xmp>x</xmp>',
  '<noscript><p>n</p></noscript>', '<iframe>i</iframe>', '<?pi x?>', '<a href=x>l</a>', '&notin; &#x41; &am', '\r\n', '<table><tr><td>c</table>',
  '<template><b>t</b></template>', '<select><option>o</select>', '<plaintext>p',
];

const document = fc
  .tuple(fc.array(fc.oneof(tagSoup, fc.constantFrom(...CONSTRUCTS)), { minLength: 1, maxLength: 4 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean())
  .map(([parts, f, cut]) => {
    const doc = parts.join('');
    return cut ? doc.slice(0, Math.floor(f * doc.length)) : doc;
  });

type Op = 'before' | 'after' | 'prepend' | 'append' | 'replace' | 'setInnerContent' | 'setAttribute' | 'rename' | 'remove' | 'text' | 'comment' | 'end';
const OPS: Op[] = ['before', 'after', 'prepend', 'append', 'replace', 'setInnerContent', 'setAttribute', 'rename', 'remove', 'text', 'comment', 'end'];

function register(r: HTMLRewriter, op: Op, payload: string, selector: string): void {
  switch (op) {
    case 'text':
      r.on(selector, { text: (t) => void (t.text.length % 2 === 0 ? t.after(payload) : t.before(payload)) });
      r.onDocument({ text: (t) => void (t.lastInTextNode && t.after(payload)) });
      return;
    case 'comment':
      r.onDocument({
        comments: (c) => {
          c.after(payload);
          // (A comment's text may hold anything that keeps it one comment; it is checked by the unit.
          // Here it gets the payload's characters without the marker, to see they stay in it.)
          try {
            c.text = c.text + payload.replace(/PWN|pwn/g, '');
          } catch (err) {
            if (!/Comment\.text/.test((err as Error).message)) throw err;
          }
        },
      });
      return;
    case 'end':
      r.onDocument({ end: (e) => void e.append(payload) });
      return;
    default:
      r.on(selector, {
        element: (e) => {
          if (op === 'setAttribute') e.setAttribute('title', payload);
          else if (op === 'rename') e.tagName = e.tagName === 'script' ? 'div' : 'x-renamed';
          else if (op === 'remove') e.remove();
          else e[op](payload);
          // A rename or removal, then text: escaped as the output reads it.
          if (op === 'rename' || op === 'remove') e.append(payload);
        },
      });
  }
}

/** Every element, attribute and comment of a parse (template contents included), as markers would show. */
function escapes(html: string, scripting: boolean): string[] {
  const found: string[] = [];
  const roots: Node[] = [parse(html, { scripting })];
  while (roots.length > 0) {
    const root = roots.pop()!;
    for (let n: Node | null = root.firstChild; n !== null; n = nextInSubtree(n, root)) {
      if (n instanceof Element) {
        if (n.localName === 'x-pwn') found.push('element x-pwn');
        for (const name of n.getAttributeNames()) if (name.toLowerCase() === 'pwn') found.push(`attribute pwn on <${n.localName}>`);
        if (n instanceof HTMLTemplateElement) roots.push(n.content);
      } else if (n instanceof Comment && n.data.includes('PWN')) found.push(`comment ${JSON.stringify(n.data)}`);
    }
  }
  return found;
}

const REFUSAL = /^(HTMLRewriter|Element\.\w+|TextChunk\.\w+|Comment\.\w+|DocumentEnd\.append|EndTag\.\w+)[:.]/;

describe('what an attacker would try', () => {
  it('inserted text stays text, values stay values: no element, attribute or comment that a handler did not create (fast-check)', async () => {
    let runs = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(document, fc.constantFrom(...OPS), fc.constantFrom(...PAYLOADS), fc.constantFrom('*', 'script', 'style, title, textarea', 'noscript, xmp, iframe', 'svg *, math *', 'p, td'), async (input, op, payload, selector) => {
        runs++;
        const r = new HTMLRewriter();
        register(r, op, payload, selector);
        let out = '';
        try {
          const t = r.createTransformer((s) => (out += s));
          await t.write(input);
          await t.end();
        } catch (err) {
          expect((err as Error).message).toMatch(REFUSAL);
          refused++;
          return;
        }
        for (const scripting of [true, false]) {
          const found = escapes(out, scripting);
          if (found.length > 0) {
            throw new Error(`${op}(${JSON.stringify(payload)}) on ${selector} in ${JSON.stringify(input)} (scripting ${scripting ? 'on' : 'off'}): ${found.join(', ')}\noutput: ${JSON.stringify(out)}`);
          }
        }
      }),
      { numRuns: 3000 },
    );
    console.log(`attacker: ${runs} runs, ${refused} refused with an error that says why`);
  });
});
