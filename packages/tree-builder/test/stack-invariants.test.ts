// The stack of open elements answers "in scope", "any other end tag", `<li>` and foreign end tag
// questions in O(1) from links it keeps up to date (see stack-of-open-elements.ts). This test checks,
// after every token of random tag soup, that each answer equals the standard's walk down the stack.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DomTreeSink, type Node } from '@sluice/dom';
import { Tokenizer } from '@sluice/tokenizer';
import { TreeBuilder } from '../src/tree-builder.js';
import type { ElementRecord, StackOfOpenElements } from '../src/stack-of-open-elements.js';
import type { ActiveFormattingElements, FormattingEntry } from '../src/active-formatting-elements.js';
import {
  BUTTON_SCOPE, HTML_NS, LIST_ITEM_SCOPE, SCOPE, SPECIAL, TABLE_SCOPE, T, tagIdOf,
} from '../src/tag-sets.js';

const NAMES = [
  'a', 'b', 'i', 'u', 's', 'em', 'font', 'nobr', 'p', 'div', 'span', 'li', 'ul', 'ol', 'dd', 'dt', 'dl',
  'button', 'table', 'tr', 'td', 'th', 'tbody', 'caption', 'select', 'option', 'optgroup', 'template',
  'form', 'h1', 'h2', 'object', 'marquee', 'applet', 'address', 'x-a', 'x-b', 'svg', 'math', 'mi', 'mtext',
  'g', 'foreignobject', 'desc', 'annotation-xml', 'mglyph', 'head', 'body', 'html', 'pre',
];
const tag = fc
  .tuple(fc.constantFrom(...NAMES), fc.boolean(), fc.constantFrom('', ' encoding=text/html', ' id=x', ' color=red'))
  .map(([name, end, attribute]) => (end ? `</${name}>` : `<${name}${attribute}>`));
const soup = fc
  .array(fc.oneof({ weight: 5, arbitrary: tag }, { weight: 1, arbitrary: fc.constantFrom('x', ' ', '<!--c-->') }), { maxLength: 60 })
  .map((parts) => parts.join(''));

function naiveScope<N>(items: ElementRecord<N>[], test: (r: ElementRecord<N>) => boolean, boundary: number): boolean {
  for (let i = items.length - 1; i >= 0; i--) {
    if (test(items[i])) return true;
    if (items[i].flags & boundary) return false;
  }
  return false;
}

function check<N>(stack: StackOfOpenElements<N>): void {
  const items = stack.items;
  for (let i = 1; i < items.length; i++) expect(items[i].order).toBeGreaterThanOrEqual(items[i - 1].order);
  if (items.length === 0) return;
  for (const name of NAMES) {
    const id = tagIdOf(name);
    if (id !== 0) {
      const is = (r: ElementRecord<N>) => r.is(id);
      expect(stack.hasInScope(id), `${name} in scope`).toBe(naiveScope(items, is, SCOPE));
      expect(stack.hasInListItemScope(id), `${name} in list item scope`).toBe(naiveScope(items, is, LIST_ITEM_SCOPE));
      expect(stack.hasInButtonScope(id), `${name} in button scope`).toBe(naiveScope(items, is, BUTTON_SCOPE));
      expect(stack.hasInTableScope(id), `${name} in table scope`).toBe(naiveScope(items, is, TABLE_SCOPE));
    }
    // "Any other end tag" in body.
    let expected: ElementRecord<N> | null = null;
    for (let i = items.length - 1; i >= 0; i--) {
      const node = items[i];
      if (node.flags & HTML_NS && node.localName === name) {
        expected = node;
        break;
      }
      if (node.flags & SPECIAL) break;
    }
    expect(stack.endTagTarget(name, id), `</${name}> target`).toBe(expected);
    // Any other end tag in foreign content (when the current node is foreign).
    if (!(stack.current.flags & HTML_NS) && items.length > 1) {
      let foreign: ElementRecord<N> | null = null;
      for (let i = items.length - 1; i > 0; i--) {
        const node = items[i];
        if (node.flags & HTML_NS) break;
        if (node.localName.toLowerCase() === name) {
          foreign = node;
          break;
        }
      }
      expect(stack.foreignEndTagTarget(name), `foreign </${name}> target`).toBe(foreign);
    }
  }
  const heading = (r: ElementRecord<N>) => r.flags & HTML_NS && r.id >= T.H1 && r.id <= T.H6;
  expect(stack.hasHeadingInScope()).toBe(naiveScope(items, (r) => !!heading(r), SCOPE));
  expect(stack.hasCellInTableScope()).toBe(naiveScope(items, (r) => r.is(T.TD) || r.is(T.TH), TABLE_SCOPE));
  expect(stack.hasTableBodyInTableScope()).toBe(naiveScope(items, (r) => r.is(T.TBODY) || r.is(T.THEAD) || r.is(T.TFOOT), TABLE_SCOPE));
  for (const record of items) expect(stack.hasRecordInScope(record)).toBe(naiveScope(items, (r) => r === record, SCOPE));
  for (const kind of ['li', 'dd-dt'] as const) {
    let expected: ElementRecord<N> | null = null;
    for (let i = items.length - 1; i >= 0; i--) {
      const node = items[i];
      if (kind === 'li' ? node.is(T.LI) : node.is(T.DD) || node.is(T.DT)) {
        expected = node;
        break;
      }
      if (node.flags & SPECIAL && !node.is(T.ADDRESS) && !node.is(T.DIV) && !node.is(T.P)) break;
    }
    expect(stack.listItemToClose(kind), `<${kind}> closes`).toBe(expected);
  }
}

const FORMATTING = ['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u'];

/**
 * The list of active formatting elements against a naive model: its per-id and per-signature chains
 * (private) list the entries of each id / signature in list order, each entry's level counts the
 * markers before it, and "the last element with this name after the last marker" equals the scan.
 */
function checkList<N>(afe: ActiveFormattingElements<N>): void {
  const list = afe as unknown as {
    first: FormattingEntry<N> | null;
    last: FormattingEntry<N> | null;
    lastById: (FormattingEntry<N> | null)[];
    lastBySignature: Map<string, FormattingEntry<N>>;
  };
  const entries: FormattingEntry<N>[] = [];
  let markers = 0;
  let previous: FormattingEntry<N> | null = null;
  for (let e = list.first; e !== null; e = e.next) {
    if (e.prev !== previous) expect.fail('prev link');
    if (e.level !== markers) expect.fail(`level ${e.level}, ${markers} markers before`);
    if (e.element === null) markers++;
    else {
      if (e.element.formatting !== e) expect.fail('record → entry link');
      entries.push(e);
    }
    previous = e;
  }
  expect(list.last).toBe(previous);
  for (const name of FORMATTING) {
    const id = tagIdOf(name);
    const ofId = entries.filter((e) => e.element!.id === id);
    const chain: FormattingEntry<N>[] = [];
    for (let e = list.lastById[id]; e !== null; e = e.prevSameId) chain.unshift(e);
    if (chain.length !== ofId.length || chain.some((e, i) => e !== ofId[i])) expect.fail(`${name} chain`);
    let expected: ElementRecord<N> | null = null;
    for (let e = list.last; e !== null && e.element !== null; e = e.prev) {
      if (e.element.id === id) {
        expected = e.element;
        break;
      }
    }
    if (afe.lastBeforeMarker(id) !== expected) expect.fail(`${name} after the last marker`);
  }
  for (const [signature, last] of list.lastBySignature) {
    const chain: FormattingEntry<N>[] = [];
    for (let e: FormattingEntry<N> | null = last; e !== null; e = e.prevSameSignature) chain.unshift(e);
    const ofSignature = entries.filter((e) => e.signature === signature);
    if (chain.length !== ofSignature.length || chain.some((e, i) => e !== ofSignature[i])) expect.fail(`signature chain ${signature}`);
  }
}

/** Parse `html`, checking the stack after every token. */
/**
 * The reconstruction tail the rewriter asks for before every token, remembered between tokens
 * (`ActiveFormattingElements.tailStart`), against the walk of §13.2.4.3: the entries after the last
 * marker or open element, and the open element before them.
 */
function checkTail<N>(b: TreeBuilder<N>): void {
  const walked: N[] = [];
  let e = (b.afe as unknown as { last: FormattingEntry<N> | null }).last;
  for (; e !== null && e.element !== null && !e.element.open; e = e.prev) walked.unshift(e.element.node);
  const boundary = e === null || e.element === null ? null : e.element.node;
  const tail = b.activeFormattingTail();
  if (tail.length !== walked.length || tail.some((n, i) => n !== walked[i])) expect.fail(`tail of ${tail.length}, the walk ${walked.length}`);
  if (b.activeFormattingTailBoundary() !== boundary) expect.fail('tail boundary');
}

function parseChecking(html: string): void {
  const sink = new DomTreeSink();
  let builder: TreeBuilder<Node> | null = null;
  const tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => builder!.cdataAllowed() });
  builder = new TreeBuilder<Node>(sink, tokenizer);
  const b = builder;
  const emit = (token: Parameters<TreeBuilder<Node>['processToken']>[0]) => {
    b.processToken(token);
    if (!b.isStopped) {
      check(b.stack);
      checkList(b.afe);
      checkTail(b);
    }
  };
  tokenizer.write(html, emit);
  tokenizer.end(emit);
  b.processEnd();
  expect(b.stack.length).toBe(0);
}

describe('stack of open elements', () => {
  it('answers like the standard walk after every token', () => {
    fc.assert(
      fc.property(soup, parseChecking),
      { seed: 1234, numRuns: 400 },
    );
  });

  it('keeps its links right when the adoption agency works among foreign elements', () => {
    for (const html of [
      // The new <b> goes between <mi> (a foreign furthest block) and <mglyph>: </mtext> must reach the
      // HTML rules, not pop up to the <mtext> below the removed <b>.
      '<math><mtext><b><math><mi><mglyph></b></mtext>x',
      '<svg><foreignObject><b><svg><desc><g></b></foreignObject></svg>y',
      '<math><mtext><i><b><math><mi><mglyph><mglyph></b></i></mtext></math>z',
      '<b><p><svg><g><a><i></b></svg></i>',
      '<div><a><b><i><u><s><div>x</a>y</div>',
      '<form><div></form><form><p>x</form>',
      '<ul><li><div><li><p><li>',
      '<dl><dd><address><dt><div><dd>',
    ]) {
      parseChecking(html);
    }
  });

  // The worst-case shapes of bench/worst-case.mjs, small: the shortcuts that keep them linear (removed
  // elements skipped by compressed links, the per-name tops standing in for walks) answer as the walks do.
  it('answers like the walk on the worst-case shapes', () => {
    const shapes = [
      '<a><b>'.repeat(12),
      '<a><div>'.repeat(12),
      '<b><p>x</b>'.repeat(12),
      '<b>' + '<div>'.repeat(12) + '</b>'.repeat(12),
      '<form><span></form>'.repeat(12) + '</span>'.repeat(12),
      '<form><svg><g></form>'.repeat(6) + '</g></svg>'.repeat(6),
      '<div>'.repeat(12) + '<table></table>'.repeat(4) + '<select></select>'.repeat(4),
      '<div>'.repeat(6) + '<table>' + '<tr>x'.repeat(6) + '<template><p>y</template>',
      '<template>' + '<table>'.repeat(4) + '<td>x</table>' + '</template>',
      '<a><table><a><tr><a>'.repeat(4),
      '<span>'.repeat(12) + '<p>'.repeat(12) + '<li>'.repeat(4),
      Array.from({ length: 6 }, (_, i) => `<b class=b${i}>`).join('') + '<p>' +
        Array.from({ length: 6 }, (_, i) => `<i class=i${i}>`).join('') + '</p><div>' + '</b>'.repeat(6),
      '<b><b><b><b><object><b><b><b><b></object><b>x',
      '<i><b><div></i></b>x</b>y</i>z',
    ];
    for (const html of shapes) parseChecking(html);
  });

  // The reconstruction tail remembered between tokens (`checkTail`): it grows back when the element
  // before it closes, loses entries (a stray end tag, Noah's Ark, a cleared marker), has them replaced
  // (reconstruction) or gets entries inserted after it (the adoption agency's bookmark).
  it('remembers the reconstruction tail only while it holds', () => {
    for (const html of [
      '<div><b><p><i>x</p></div>y',
      '<div><b><p><i>x</p></div></i>y',
      '<p><b><i>x</p><a>y',
      '<p><b class=1><b class=2><b class=3><b class=4>x</p><b class=4>y',
      '<table><td><p><b>x</p></td></table>y',
      '<p><b><i>x</p></i>y</b>z',
      '<b class=b1><b class=b2><p><i class=i1><i class=i2></p><div></b></b>x',
      '<div><a><p><i>x</p></div><a>y',
      '<p><b><i><u>x</p><div></b>y</div>z',
      '<div><s><p><u>x</p></div><s>y</s>',
    ]) {
      parseChecking(html);
    }
  });

  it('answers like the walk on random soup of the worst-case pieces', () => {
    const piece = fc.constantFrom(
      '<a>', '<b>', '</b>', '</a>', '<div>', '</div>', '<p>', '</p>', '<form>', '</form>', '<span>', '</span>',
      '<table>', '</table>', '<tr>', '<td>', '<template>', '</template>', '<select>', '</select>', '<svg>', '<g>',
      '</g>', '<object>', '</object>', 'x', '<b class=x>', '<b class=y>', '<i>', '</i>', '<nobr>', '<u>', '</u>',
      '<td>', '</td>', '<marquee>', '</marquee>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }).map((parts) => parts.join('')), parseChecking),
      { seed: 4321, numRuns: 200 },
    );
  });
});

describe('tag ids', () => {
  it('tagIdOf gives each tag name the rules name its id, and every other name 0', () => {
    for (const [key, id] of Object.entries(T)) {
      if (id === 0) continue;
      const name = key.toLowerCase();
      expect(tagIdOf(name), name).toBe(id);
      // Not the same string object: looked up by its characters.
      expect(tagIdOf([...name].join('')), name).toBe(id);
      // Names compare exactly (the tokenizer lowercases them): a different case or one more character is another name.
      expect(tagIdOf(name.toUpperCase()), name).toBe(0);
      expect(tagIdOf(`${name}x`), name).toBe(0);
    }
    for (const other of ['', 'del', 'dfn', 'x', 'tds', 'custom-element', 'abbreviation', 'é', 'foreignobject']) expect(tagIdOf(other), other).toBe(0);
  });
});
