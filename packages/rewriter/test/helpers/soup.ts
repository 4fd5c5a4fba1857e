/** fast-check generators of HTML tag soup for the rewriter's property tests. */
import fc from 'fast-check';

const TAGS = [
  'html', 'head', 'body', 'title', 'div', 'p', 'span', 'a', 'b', 'i', 'em', 'table', 'tbody', 'tr', 'td', 'th',
  'caption', 'colgroup', 'col', 'ul', 'li', 'select', 'option', 'svg', 'rect', 'foreignObject', 'desc', 'math', 'mi',
  'template', 'br', 'img', 'input', 'form', 'button', 'h1', 'pre', 'dd', 'nobr', 'font', 'object', 'frameset',
  'textarea', 'style', 'script', 'noscript', 'plaintext', 'image', 'hr', 'section', 'x-y',
];

const attr = fc.oneof(
  fc.constantFrom(' class=x', ' class="x y"', ' class=Y', ' class="y"', ' id=i', ' id=I', ' title=a', ' title=abc', ' title="b c"'),
  fc.constantFrom(' lang=en', ' lang=en-US', ' LANG=EN', ' type=Hidden', ' href="http://e.x/"', ' viewBox="0 0 1 1"', ' Title=x', ' color=RED'),
);

const startTag = fc
  .tuple(fc.constantFrom(...TAGS), fc.array(attr, { maxLength: 2 }), fc.boolean(), fc.boolean())
  .map(([t, attrs, upper, selfClosing]) => `<${upper ? t.toUpperCase() : t}${attrs.join('')}${selfClosing ? '/' : ''}>`);
const endTag = fc.constantFrom(...TAGS).map((t) => `</${t}>`);
const text = fc.constantFrom('x', ' ', '\n', 'a b', '&amp;', '\u0000', 'txt ', '\r\n', '&#32;z');
const other = fc.constantFrom('<!--c-->', '<!doctype html>', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">', '</>', '<![CDATA[d]]>', '<?pi?>', '<');

/** A sequence of tags, text and comments (mostly tags), joined. */
export const tagSoup = fc
  .array(fc.oneof({ weight: 5, arbitrary: startTag }, { weight: 3, arbitrary: endTag }, { weight: 3, arbitrary: text }, { weight: 1, arbitrary: other }), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));

/** Split `s` at the given fractions of its length (sorted, deduplicated). */
export function splitAt(s: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * s.length)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let prev = 0;
  for (const p of points) {
    chunks.push(s.slice(prev, p));
    prev = p;
  }
  chunks.push(s.slice(prev));
  return chunks;
}

/** Random chunk cut points. */
export const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });
