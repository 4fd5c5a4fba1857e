/**
 * The attacker's cases (issue 20 item 3), shared by tests/rewriter/attacker.test.ts (the output reparsed by
 * sluice) and tests/browser/attacker.test.ts (the same outputs served to Chromium): documents with every
 * construct, cut off at any point; payloads written to close every context they may land in; every way a
 * handler inserts text or sets a value; the selector scopes; what a refusal's message looks like; and the
 * markers an escape shows up as in sluice's reparse.
 */
import fc from 'fast-check';
import { Comment, Element, type Node, HTMLTemplateElement, nextInSubtree, parse } from '@sluice/dom';
import type { HTMLRewriter } from '@sluice/rewriter';
import { tagSoup } from './soup.js';

/** The marker an escape would show up as: an element `x-pwn`, an attribute `pwn`, a comment with `PWN`. */
export const PAYLOADS = [
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

/** Tag soup and the constructs above, one to four of them, cut off at any point half the time. */
export const document = fc
  .tuple(fc.array(fc.oneof(tagSoup, fc.constantFrom(...CONSTRUCTS)), { minLength: 1, maxLength: 4 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean())
  .map(([parts, f, cut]) => {
    const doc = parts.join('');
    return cut ? doc.slice(0, Math.floor(f * doc.length)) : doc;
  });

export type Op = 'before' | 'after' | 'prepend' | 'append' | 'replace' | 'setInnerContent' | 'setAttribute' | 'rename' | 'remove' | 'text' | 'comment' | 'end';
export const OPS: Op[] = ['before', 'after', 'prepend', 'append', 'replace', 'setInnerContent', 'setAttribute', 'rename', 'remove', 'text', 'comment', 'end'];

/** The selectors the element and text handlers are registered on. */
export const SELECTORS = ['*', 'script', 'style, title, textarea', 'noscript, xmp, iframe', 'svg *, math *', 'p, td'];

/** Registers on `r` the handlers of `op`, inserting or setting `payload` (element and text handlers on `selector`). */
export function register(r: HTMLRewriter, op: Op, payload: string, selector: string): void {
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
export function escapes(html: string, scripting: boolean): string[] {
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

/** What a refusal's message starts with: the API that refused. */
export const REFUSAL = /^(HTMLRewriter|Element\.\w+|TextChunk\.\w+|Comment\.\w+|DocumentEnd\.append|EndTag\.\w+)[:.]/;
