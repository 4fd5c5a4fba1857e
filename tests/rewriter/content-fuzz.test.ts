/**
 * Exact on the final tree, for handlers chosen at random: each of a few tag names gets one change
 * (removed, unwrapped, renamed within its class or to another class, text before/after/at the start/
 * at the end, inner content, replaced, its text removed, an attribute set), over generated tag soup in
 * random chunkings. The output, reparsed, must be the tree `parse(input)` builds with the same changes
 * applied to its nodes — or the rewrite refused with one of the documented errors (`REFUSAL`).
 *
 * This complements content-changes.test.ts (one fixed handler set, more inputs) with more kinds of change
 * on more kinds of element: where a change meets a rule of the tree builder that the alignment
 * (packages/rewriter/src/transform/alignment.ts) does not handle, it shows up here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Comment as DomComment, Document, Element, type Node, Text, nextInSubtree, parse } from '@sluice/dom';
import { type Comment, type ElementUnit, HTMLRewriter, type TextChunk, parseSelector } from '@sluice/rewriter';
import { REFUSAL, normalized, rearranging } from './helpers/final-tree.js';
import { querySelectorAll } from './helpers/reference-query.js';
import { cuts, splitAt, tagSoup } from './helpers/soup.js';
import { readDatFiles, treeConstructionDir } from '../../packages/tree-builder/test/support/html5lib-tree-tests.js';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

type Change =
  | { kind: 'remove' | 'unwrap' | 'prepend' | 'append' | 'before' | 'after' | 'inner' | 'replace' | 'text-remove' | 'attribute' }
  | { kind: 'text-upper' | 'comment-remove' | 'comment-replace' | 'comment-upper' | 'comment-before' | 'comment-after' | 'attribute-remove' | 'combo' | 'end-before' | 'end-after' }
  | { kind: 'rename'; to: string };

/** The tag names changes go to, and the names each may be renamed to (same class first, then another). */
const TARGETS: Readonly<Record<string, readonly string[]>> = {
  p: ['section', 'div'],
  div: ['section', 'address', 'x-div', 'span'],
  span: ['x-span', 'div', 'h2'],
  b: ['strong', 'x-b'],
  i: ['em', 'span'],
  a: ['span', 'x-a'],
  li: ['x-li', 'div'],
  h1: ['h2', 'div', 'x-h'],
  section: ['article', 'div', 'span'],
  dd: ['dt', 'div'],
  pre: ['listing'],
  td: ['th'],
  em: ['i', 'span'],
  font: ['u'],
  table: ['x-table'],
  ul: ['ol', 'div'],
  select: ['x-select', 'div'],
  option: ['optgroup', 'x-option'],
};
const NAMES = Object.keys(TARGETS);

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.constantFrom<Change>(
    { kind: 'remove' },
    { kind: 'unwrap' },
    { kind: 'prepend' },
    { kind: 'append' },
    { kind: 'before' },
    { kind: 'after' },
    { kind: 'inner' },
    { kind: 'replace' },
    { kind: 'text-remove' },
    { kind: 'attribute' },
  ),
  fc.constant({ kind: 'rename', to: '' } as Change),
);

/**
 * Up to four tag names, each with one change (a rename picks its new name from `TARGETS`). (`before` on a
 * table is exact, or refused where the parser later foster-parents content in front of the table.)
 */
const config = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), change, fc.nat(3)), { minLength: 1, maxLength: 4, selector: ([name]) => name })
  .map((entries) =>
    entries.map(([name, c, k]): [string, Change] => {
      if (c.kind !== 'rename') return [name, c];
      const names = TARGETS[name]!;
      return [name, { kind: 'rename', to: names[k % names.length]! }];
    }),
  );

/** Extra soup with the names above in it (the shared soups have few of some). */
const namedSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom(...NAMES).map((n) => `<${n}>`),
      fc.constantFrom(...NAMES).map((n) => `</${n}>`),
      fc.constantFrom('x', ' ', 'y z', '<!--c-->', '<br>', '<tr>', '<svg>', '<math>', '</svg>', '<option>', '<select>', '<template>', '</template>'),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

/**
 * Soup of tables with formatting elements and text in them: what foster parenting, table text held by
 * the tree builder (§13.2.6.4.10) and the reconstruction of the active formatting elements do together
 * (`<table><a><table>x`: the text makes a copy of the `a` before the second table, which a handler's
 * `before` must precede).
 */
const TABLE_PART = fc.constantFrom('<table>', '</table>', '<tr>', '<td>', '</td>', '<caption>', '<tbody>', '<colgroup>');
const FORMATTING_PART = fc.constantFrom('<a>', '</a>', '<b>', '</b>', '<i>', '<font>', '</font>');
const TEXT_PART = fc.constantFrom('x', ' ', 'y z', ' w');
/** A formatting element in a table, a table tag that closes it, then text: the shape that makes a copy for table text. */
const fostered = fc.tuple(TABLE_PART, FORMATTING_PART, TABLE_PART, TEXT_PART).map((parts) => parts.join(''));
const fosteringSoup = fc
  .array(fc.oneof(fostered, TABLE_PART, FORMATTING_PART, TEXT_PART, fc.constantFrom('<p>', '<div>', '</div>', '<span>', '<li>', '<select>', '<option>')), { maxLength: 10 })
  .map((parts) => parts.join(''));

/** The handlers for `entries`; `async`: each awaits a tick first (the ops queue behind it; the output must not change). */
function handlersFor(r: HTMLRewriter, entries: readonly [string, Change][], async = false): void {
  for (const [name, c] of entries) {
    if (c.kind === 'text-remove') {
      r.on(name, { text: async ? async (t) => void (await null, t.remove()) : (t) => void t.remove() });
      continue;
    }
    if (c.kind === 'text-upper') {
      // (The chunk's source text, as markup: the soups have no character references and no `<` in
      // text but in raw text elements, where markup is text: so upper-cased, it is the text upper-cased.)
      const upper = (t: TextChunk): void => void (t.text !== '' && t.replace(t.text.toUpperCase(), { html: true }));
      r.on(name, { text: async ? async (t) => void (await null, upper(t)) : upper });
      continue;
    }
    if (c.kind.startsWith('comment-')) {
      const act = (k: Comment): void => {
        if (c.kind === 'comment-remove') k.remove();
        else if (c.kind === 'comment-replace') k.replace('[c]');
        else if (c.kind === 'comment-before') k.before('[cb]');
        else if (c.kind === 'comment-after') k.after('[ca]');
        else k.text = k.text.toUpperCase();
      };
      r.on(name, { comments: async ? async (k) => void (await null, act(k)) : act });
      continue;
    }
    const change = (e: ElementUnit): void => {
        switch (c.kind) {
          case 'remove': return void e.remove();
          case 'unwrap': return void e.removeAndKeepContent();
          case 'rename': return void (e.tagName = c.to);
          case 'prepend': if (e.namespaceURI === HTML_NS) e.prepend('[p]'); return;
          case 'append': if (e.namespaceURI === HTML_NS) e.append('[a]'); return;
          case 'before': return void e.before('[b]');
          case 'after': return void e.after('[f]');
          case 'inner': if (e.namespaceURI === HTML_NS) e.setInnerContent('[i]'); return;
          case 'replace': return void e.replace('[r]');
          case 'attribute': return void e.setAttribute('data-x', name);
          case 'attribute-remove': return void e.removeAttribute('class');
          case 'end-before':
          case 'end-after':
            // At the element's end (its end tag, or where it is closed): inside it, last, or after it.
            // (On HTML elements: a self-closing foreign element has no end, which the DOM cannot tell.)
            if (e.canHaveContent && e.namespaceURI === HTML_NS) e.onEndTag((end) => void (c.kind === 'end-before' ? end.before('[eb]') : end.after('[ea]')));
            return;
          case 'combo':
            // Several changes to one element, in an order a handler might make them.
            e.after('[F]');
            e.setAttribute('data-c', '1');
            if (e.namespaceURI === HTML_NS) e.append('[A]').prepend('[P]');
            return void e.before('[B]');
        }
    };
    r.on(name, { element: async ? async (e) => void (await null, change(e)) : change });
  }
}

/** A bound on what the rewriter holds; `release`: held output past it is written and reported (`released` then set). */
interface Limits {
  readonly maxBufferedBytes: number;
  readonly release: boolean;
  released?: boolean;
}

async function rewrite(chunks: readonly string[], entries: readonly [string, Change][], async = false, limits?: Limits): Promise<string> {
  const r = new HTMLRewriter(
    limits === undefined
      ? {}
      : limits.release
        ? { maxBufferedBytes: limits.maxBufferedBytes, heldOutput: 'release', onHoldReleased: () => void (limits.released = true) }
        : { maxBufferedBytes: limits.maxBufferedBytes },
  );
  handlersFor(r, entries, async);
  let out = '';
  const t = r.createTransformer((s) => (out += s));
  for (const c of chunks) await t.write(c);
  await t.end();
  return out;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'basefont', 'bgsound', 'frame', 'keygen', 'param', 'image']);

function all(doc: Document): Node[] {
  const out: Node[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) out.push(n);
  return out;
}

/** `parse(input)` with the changes applied to the final tree's nodes, in an order that composes them. */
function expected(input: string, entries: readonly [string, Change][]): Document {
  const doc = parse(input);
  const matched = new Map<string, Element[]>(entries.map(([name]) => [name, querySelectorAll(doc, parseSelector(name))]));
  const of = (kind: string) => entries.filter(([, c]) => c.kind === kind).flatMap(([name, c]) => matched.get(name)!.map((el) => [el, c, name] as const));
  // Text inside matched elements (their descendants' included), removed.
  const textless = new Set(of('text-remove').map(([el]) => el));
  if (textless.size > 0) {
    for (const n of all(doc)) {
      if (!(n instanceof Text)) continue;
      for (let a = n.parentElement; a !== null; a = a.parentElement) if (textless.has(a)) { n.remove(); break; }
    }
  }
  // Text and comments inside matched elements, upper-cased, removed or replaced.
  const inScope = (kind: string): Set<Element> => new Set(of(kind).map(([el]) => el));
  const scoped = (n: Node, scope: Set<Element>): boolean => {
    if (scope.size === 0) return false;
    for (let a = n.parentElement; a !== null; a = a.parentElement) if (scope.has(a)) return true;
    return false;
  };
  const upper = inScope('text-upper');
  const [cRemove, cReplace, cUpper] = [inScope('comment-remove'), inScope('comment-replace'), inScope('comment-upper')];
  const [cBefore, cAfter] = [inScope('comment-before'), inScope('comment-after')];
  for (const n of all(doc)) {
    if (n instanceof Text && upper.size > 0 && scoped(n, upper)) n.data = n.data.toUpperCase();
    if (!(n instanceof DomComment)) continue;
    if (scoped(n, cUpper)) n.data = n.data.toUpperCase();
    if (scoped(n, cBefore)) n.parentNode!.insertBefore(doc.createTextNode('[cb]'), n);
    if (scoped(n, cAfter)) n.parentNode!.insertBefore(doc.createTextNode('[ca]'), n.nextSibling);
    if (scoped(n, cReplace)) n.parentNode!.replaceChild(doc.createTextNode('[c]'), n);
    else if (scoped(n, cRemove)) n.remove();
  }
  const canHaveContent = (el: Element) => el.namespaceURI === HTML_NS && !VOID.has(el.localName);
  for (const [el, , name] of of('attribute')) el.setAttribute('data-x', name);
  for (const [el] of of('attribute-remove')) el.removeAttribute('class');
  for (const [el] of of('end-before')) if (canHaveContent(el)) el.appendChild(doc.createTextNode('[eb]'));
  for (const [el] of of('end-after')) if (canHaveContent(el)) el.parentNode?.insertBefore(doc.createTextNode('[ea]'), el.nextSibling);
  for (const [el] of of('combo')) {
    el.setAttribute('data-c', '1');
    if (canHaveContent(el)) {
      el.insertBefore(doc.createTextNode('[P]'), el.firstChild);
      el.appendChild(doc.createTextNode('[A]'));
    }
    el.parentNode?.insertBefore(doc.createTextNode('[B]'), el);
    el.parentNode?.insertBefore(doc.createTextNode('[F]'), el.nextSibling);
  }
  for (const [el] of of('prepend')) if (canHaveContent(el)) el.insertBefore(doc.createTextNode('[p]'), el.firstChild);
  for (const [el] of of('append')) if (canHaveContent(el)) el.appendChild(doc.createTextNode('[a]'));
  for (const [el] of of('before')) el.parentNode?.insertBefore(doc.createTextNode('[b]'), el);
  for (const [el] of of('after')) el.parentNode?.insertBefore(doc.createTextNode('[f]'), el.nextSibling);
  for (const [el] of of('inner')) {
    if (!canHaveContent(el)) continue;
    while (el.firstChild !== null) el.firstChild.remove();
    el.appendChild(doc.createTextNode('[i]'));
  }
  for (const [el, c] of of('rename')) {
    if (c.kind !== 'rename' || el.parentNode === null) continue;
    const renamed = doc.createElementNS(el.namespaceURI, c.to);
    for (const n of el.getAttributeNames()) renamed.setAttribute(n, el.getAttribute(n)!);
    while (el.firstChild !== null) renamed.appendChild(el.firstChild);
    el.parentNode.replaceChild(renamed, el);
  }
  for (const [el] of of('unwrap')) {
    if (el.parentNode === null) continue;
    while (el.firstChild !== null) el.parentNode.insertBefore(el.firstChild, el);
    el.remove();
  }
  for (const [el] of of('replace')) el.parentNode?.replaceChild(doc.createTextNode('[r]'), el);
  for (const [el] of of('remove')) el.remove();
  return doc;
}

/**
 * Whether an element of `parse(input)` matches two of `entries`' selectors: their changes would then
 * compose in an order `expected` does not model (handlers run in registration order), so such a case is
 * not checked (`exactOver` counts them).
 */
function overlapping(input: string, entries: readonly [string, Change][]): boolean {
  if (entries.length < 2) return false;
  const doc = parse(input);
  const seen = new Set<Element>();
  for (const [name] of entries) {
    for (const el of querySelectorAll(doc, parseSelector(name))) {
      if (seen.has(el)) return true;
      seen.add(el);
    }
  }
  return false;
}

/** Rewrite with `entries`: null when the output reparses to the expected tree or the rewrite was refused as documented; else why not. */
/** `maxBufferedBytes` exceeded: the documented error when the bound forces a decision (limits.ts). */
const BOUND_EXCEEDED = /^HTMLRewriter: maxBufferedBytes \(\d+\) exceeded: /;

async function check(input: string, chunks: readonly string[], entries: readonly [string, Change][], kinds: Map<string, number>, async = false, bound?: number, release = false): Promise<string | null> {
  if (overlapping(input, entries)) {
    kinds.set(OVERLAP, (kinds.get(OVERLAP) ?? 0) + 1);
    return null;
  }
  const limits: Limits | undefined = bound === undefined ? undefined : { maxBufferedBytes: bound, release };
  let out: string;
  try {
    out = await rewrite(chunks, entries, async, limits);
  } catch (err) {
    const message = (err as Error).message;
    if (bound !== undefined && BOUND_EXCEEDED.test(message)) {
      kinds.set(BOUND, (kinds.get(BOUND) ?? 0) + 1);
      return null;
    }
    if (!REFUSAL.test(message)) return `${JSON.stringify(input)} ${JSON.stringify(entries)} threw: ${message}`;
    const kind = message.replace(/offset \d+/g, 'offset N').replace(/^HTMLRewriter: /, '').slice(0, 80);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    return null;
  }
  // (Held output released past the bound was written as it stood, and reported: the documented
  // fallback the user chose, which may be another tree.)
  if (limits !== undefined && limits.released === true) {
    kinds.set(RELEASED, (kinds.get(RELEASED) ?? 0) + 1);
    return null;
  }
  const got = normalized(parse(out));
  const want = normalized(expected(input, entries));
  if (got === want) return null;
  return `input ${JSON.stringify(input)} in ${JSON.stringify(chunks)}, changes ${JSON.stringify(entries)}\noutput ${JSON.stringify(out)}\nreparsed:\n${got}\nexpected:\n${want}`;
}

/** `check` of `input` whole and in 1-character chunks, with sync and async handlers: each exact, or refused as documented (counted in `kinds`). */
async function expectExactEveryWay(input: string, entries: readonly [string, Change][], kinds: Map<string, number>): Promise<void> {
  for (const chunks of [[input], [...input]]) for (const async of [false, true]) expect(await check(input, chunks, entries, kinds, async)).toBeNull();
}

/** The property over `soup` × `changes` in random chunkings; prints the runs and the refusals by kind. */
async function exactOver(name: string, soup: fc.Arbitrary<string>, changes: fc.Arbitrary<[string, Change][]>, numRuns: number, async = false, bound?: number, release = false): Promise<void> {
  let runs = 0;
  const kinds = new Map<string, number>();
  const failures: string[] = [];
  const property = fc.assert(
    fc.asyncProperty(soup, cuts, changes, async (input, c, entries) => {
      runs++;
      const failure = await check(input, splitAt(input, c), entries, kinds, async, bound, release);
      if (failure === null) return true;
      failures.push(failure);
      return false;
    }),
    { numRuns },
  );
  // (The shrunk counterexample's own failure is the last one recorded.)
  await property.catch((err: unknown) => {
    throw new Error(`${(err as Error).message}\n${failures[failures.length - 1] ?? ''}`);
  });
  const skipped = kinds.get(OVERLAP) ?? 0;
  kinds.delete(OVERLAP);
  const refused = [...kinds.values()].reduce((a, b) => a + b, 0);
  const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, n]) => `  ${n} × ${k}`);
  console.log(`content fuzz, ${name}: ${runs} runs, all exact${skipped > 0 ? ` (${skipped} not checked: two selectors matched one element)` : ''}; ${refused} refused as documented:\n${top.join('\n')}`);
  expect(failures.slice(0, 1)).toEqual([]);
}

/** `check`'s count of cases not checked (`overlapping`), kept apart from the refusals. */
const OVERLAP = '(overlapping selectors)';
/** `check`'s count of rewrites stopped by `maxBufferedBytes` (counted with the refusals). */
const BOUND = 'maxBufferedBytes exceeded';
/** `check`'s count of rewrites whose held output was released past the bound (`heldOutput: 'release'`). */
const RELEASED = "held output released past maxBufferedBytes (heldOutput: 'release')";

const KINDS: readonly Change['kind'][] = ['remove', 'unwrap', 'prepend', 'append', 'before', 'after', 'inner', 'replace', 'text-remove', 'attribute', 'rename'];

/**
 * Up to three of `names`, each with one kind of change (a rename to one of `targets`' names for it,
 * `TARGETS` by default).
 */
function changesOn(
  names: readonly string[],
  targets: Readonly<Record<string, readonly string[]>> = TARGETS,
  kinds: readonly Change['kind'][] = KINDS,
  atMostOneOf: readonly (readonly Change['kind'][])[] = [],
): fc.Arbitrary<[string, Change][]> {
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...kinds), fc.nat(3)), { minLength: 1, maxLength: 3, selector: ([name]) => name })
    .filter((entries) => atMostOneOf.every((group) => entries.filter(([, k]) => group.includes(k)).length <= 1))
    .map((entries) => entries.map(([name, kind, k]): [string, Change] => (kind === 'rename' ? [name, { kind, to: targets[name]![k % targets[name]!.length]! }] : [name, { kind } as Change])));
}

/**
 * Selectors that look beyond the element (combinators, positions), each with the names a rename may
 * give the elements it matches: matched on the final tree, which the adoption agency algorithm,
 * foster parenting and reconstruction reshape after the start tags were read.
 */
const SELECTOR_TARGETS: Readonly<Record<string, readonly string[]>> = {
  'div b': ['strong', 'x-b'],
  'p > a': ['span', 'x-a'],
  'table a': ['x-a', 'span'],
  'b + i': ['em', 'span'],
  'b ~ i': ['em', 'x-i'],
  'td b': ['strong', 'div'],
  'li:nth-child(2)': ['x-li', 'div'],
  'a b': ['strong', 'x-b'],
  'i b': ['x-b', 'span'],
  'b i': ['em', 'div'],
  'div > div': ['section', 'span'],
  'p:first-child': ['div', 'x-p'],
  'font b': ['x-b'],
  'b div': ['section', 'span'],
  ':not(p) > span': ['x-span', 'div'],
  'b:nth-of-type(2)': ['x-b', 'strong'],
  'a:not(:first-child)': ['x-a'],
  'b > a': ['span', 'x-a'],
  'td > a, th i': ['span'],
};

/**
 * Changes to text and comments (upper-cased, removed, replaced by text) with element changes beside them,
 * on `names`: at most one text change and one comment change per case (two on nested elements would
 * compose in handler order, which `expected` does not model).
 */
const TEXT_KINDS: readonly Change['kind'][] = ['text-upper', 'text-remove'];
const COMMENT_KINDS: readonly Change['kind'][] = ['comment-remove', 'comment-replace', 'comment-upper', 'comment-before', 'comment-after'];
function textChangesOn(names: readonly string[], targets: Readonly<Record<string, readonly string[]>>): fc.Arbitrary<[string, Change][]> {
  const kinds: Change['kind'][] = [...TEXT_KINDS, ...TEXT_KINDS, ...COMMENT_KINDS, ...KINDS, 'combo', 'combo', 'end-before', 'end-after'];
  return changesOn(names, targets, kinds, [TEXT_KINDS, COMMENT_KINDS]);
}

/** Up to three of `SELECTOR_TARGETS`' selectors, each with one kind of change. */
const selectorConfig = changesOn(Object.keys(SELECTOR_TARGETS), SELECTOR_TARGETS);

/** Soup of the elements those selectors name, formatting and blocks misnested, tables, lists. */
const MIXED_PART = fc.constantFrom('<div>', '</div>', '<p>', '</p>', '<a>', '</a>', '<b>', '</b>', '<i>', '</i>', '<font>', '<span>', '</span>', '<li>', '<ul>', '<table>', '<td>', '<tr>', '</table>', 'x', ' ', 'y z', '<!--c-->', '<br>', '<th>', '<section>');
const combinatorSoup = fc.oneof(
  fc.array(fc.oneof(MIXED_PART, MIXED_PART, fc.constantFrom('<em>', '<h1>', '<select>', '<option>', '<svg>', '</svg>', '<template>', '</template>')), { maxLength: 22 }).map((p) => p.join('')),
  fc.array(MIXED_PART, { maxLength: 16 }).map((p) => p.join('')),
  fosteringSoup,
  namedSoup,
);

/** Soup with text and comments inside the elements the changes go to: `MIXED_PART` and `TARGETS`' names, a comment or text after most tags. */
const COMMENTED_PART = fc.oneof(MIXED_PART, fc.constantFrom(...NAMES).map((n) => `<${n}>`), fc.constantFrom(...NAMES).map((n) => `</${n}>`), fc.constantFrom('<svg>', '</svg>', '<template>', '</template>', '<caption>', '<title>', '<textarea>'));
const commentedSoup = fc
  .array(fc.tuple(COMMENTED_PART, fc.constantFrom('', '<!--c-->', 'x', '<!--d-->y', ' ')), { maxLength: 14 })
  .map((parts) => parts.flat().join(''));

/**
 * Selectors on attributes, each with the names a rename may give the elements it matches; and soup
 * whose formatting elements carry those attributes, so that the copies the parser makes of them do too.
 */
const ATTRIBUTE_TARGETS: Readonly<Record<string, readonly string[]>> = {
  '.k': ['x-k', 'span'],
  'a[href]': ['span', 'x-a'],
  'b[title=x]': ['strong', 'x-b'],
  'i.k': ['em', 'span'],
  '[class] b': ['strong'],
  'i.k + b': ['x-b'],
  'div.k > a': ['span'],
  '[title]': ['x-t', 'span'],
};
const attributeConfig = changesOn(Object.keys(ATTRIBUTE_TARGETS), ATTRIBUTE_TARGETS, [...KINDS, 'attribute-remove', 'attribute-remove', 'text-upper', 'comment-remove', 'combo', 'combo'], [TEXT_KINDS]);
const ATTRIBUTE_PART = fc.constantFrom('<i class=k>', '<a href=1>', '<b title=x>', '<b>', '<div class=k>', '<span title=y>', '<font class=k>', '</i>', '</a>', '</b>', '</font>', '<a>', '<i>');
const attributeSoup = fc
  .array(fc.tuple(fc.oneof(ATTRIBUTE_PART, ATTRIBUTE_PART, MIXED_PART), fc.constantFrom('', '', 'x', '<!--c-->')), { maxLength: 16 })
  .map((parts) => parts.flat().join(''));

/** Changes on the formatting elements only (what a reconstruction copies), for `fosteringSoup`. */
const formattingConfig = changesOn(['a', 'b', 'i', 'font']);

/** Soups of one region of the tree construction rules each, for `anyConfig`. */
const part = (xs: string[], maxLength: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...xs), { maxLength }).map((p) => p.join(''));
const regionSoups: Record<string, fc.Arbitrary<string>> = {
  '<select> (no "in select" mode: its content is parsed in the body)': part(['<select>', '</select>', '<option>', '</option>', '<optgroup>', '<hr>', '<b>', '</b>', '<a>', '<div>', '</div>', 'x', ' ', '<input>', '<p>', '<table>', '<td>', '<button>', '<i>'], 14),
  'foreign content and its breakouts': part(['<svg>', '</svg>', '<math>', '<mi>', '<desc>', '<foreignObject>', '<b>', '</b>', '<a>', '</a>', '<p>', '</p>', '<div>', 'x', ' ', '<font color=1>', '<font>', '<span>', '<table>', '<i>', '<li>'], 14),
  '<template> and the markers it pushes': part(['<template>', '</template>', '<b>', '</b>', '<a>', '</a>', '<td>', '<tr>', '<table>', 'x', ' ', '<p>', '<div>', '</div>', '<i>', '<li>', '<span>', '<section>'], 14),
  'lists, headings and misnested formatting': part(['<li>', '<dd>', '<dt>', '<ul>', '</ul>', '<b>', '</b>', '<a>', '</a>', '<p>', '</p>', '<h1>', '</h2>', 'x', ' ', '<div>', '<section>', '</section>', '<i>', '<em>', '<nobr>', '</nobr>', '<span>'], 16),
  'html, head and body tags out of place': part(['<html>', '<head>', '</head>', '<body>', '</body>', '</html>', '<title>', '<meta>', '<style>', '<b>', '</b>', '<p>', 'x', ' ', '<frameset>', '<div>', '<a>', '<span>', '<!--c-->', '<noscript>'], 12),
};

/** Any change on any of `TARGETS`' names. */
const anyConfig = changesOn(NAMES);

describe('exact on the final tree, with handlers chosen at random', () => {
  // (Each found nothing in 3,000 sync and 1,000 async runs on 2026-11-28: kept so that it stays so.)
  for (const [region, soup] of Object.entries(regionSoups)) {
    it(`every change, on soup of ${region} (fast-check, sync and async handlers)`, async () => {
      await exactOver(region, soup, anyConfig, 400);
      await exactOver(`${region}, async handlers`, soup, anyConfig, 150, true);
      // (Selectors that look beyond the element found seven wrong outputs here on 2026-11-28.)
      await exactOver(`${region}, combinator selectors`, soup, selectorConfig, 400);
      await exactOver(`${region}, combinator selectors, async handlers`, soup, selectorConfig, 150, true);
    }, 600_000);
  }

  it('every change on elements matched by combinators and positions, on the final tree (fast-check, sync and async handlers)', async () => {
    // (Found on 2026-11-28: text handlers decided before a move took the text out of their element; an
    // `<a>` start tag that ran the adoption agency algorithm renamed; content removed or written at the
    // end of an element a move took an element out of, with a handler that ran after the move.)
    await exactOver('combinators', combinatorSoup, selectorConfig, 3000);
    await exactOver('combinators, async handlers', combinatorSoup, selectorConfig, 1000, true);
  }, 600_000);

  it('text and comments upper-cased, removed or replaced, beside element changes, on the final tree (fast-check, sync and async handlers)', async () => {
    const soup = fc.oneof(commentedSoup, commentedSoup, namedSoup, combinatorSoup, fosteringSoup, ...Object.values(regionSoups));
    const runs = Number(process.env.FUZZ_RUNS ?? 1);
    await exactOver('text and comments, names', soup, textChangesOn(NAMES, TARGETS), 600 * runs);
    await exactOver('text and comments, names, async handlers', soup, textChangesOn(NAMES, TARGETS), 200 * runs, true);
    await exactOver('text and comments, combinators', soup, textChangesOn(Object.keys(SELECTOR_TARGETS), SELECTOR_TARGETS), 600 * runs);
    await exactOver('text and comments, combinators, async handlers', soup, textChangesOn(Object.keys(SELECTOR_TARGETS), SELECTOR_TARGETS), 200 * runs, true);
  }, 600_000);

  it('found by the text and comment changes (2026-11-28): exact, or refused as documented', async () => {
    const kinds = new Map<string, number>();
    // Whitespace a handler writes into a <colgroup> reconstructs nothing: the copy the input's parser makes
    // for the text after it is the output's parser's to make too (no `</a>` before the whitespace, which
    // would close the colgroup).
    for (const [input, entries] of [
      ['<a><table><a><colgroup> w', [['a', { kind: 'text-upper' }]]],
      ['<a><table><a><colgroup> w', [['table', { kind: 'text-upper' }]]],
      ['<b><table><b><tr> w', [['b', { kind: 'text-upper' }]]],
      // A comment in a table ends the table text before it: left out, an ignored end tag does that.
      ['<table> <!--d-->y', [['table', { kind: 'comment-remove' }]]],
      ['<table><tr> <!--d-->y<td>', [['tr', { kind: 'comment-remove' }]]],
      // An implied element's start tag is not written: what comes first in the output (`</p>`) implies
      // no body, which is written explicitly for the content after the p.
      ['<a></p>', [['a', { kind: 'unwrap' }], ['p', { kind: 'after' }]]],
      ['<span></p>x', [['span', { kind: 'remove' }], ['p', { kind: 'before' }]]],
      // The copy a reconstruction made, removed: an end tag that takes it off the list takes the output
      // parser's entry there (the original it copied) off too — written, not left out.
      ['<table><b><table>x<table></b><table>x', [['b:nth-of-type(2)', { kind: 'remove' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
    const refused = async (input: string, entries: [string, Change][], message: RegExp): Promise<void> => {
      for (const async of [false, true]) for (const chunks of [[input], [...input]]) await expect(rewrite(chunks, entries, async)).rejects.toThrow(message);
    };
    // A second `</html>` (text after the first took the parser back into the body) inside removed
    // content: written, or the comment after it goes into the body (random seed 503, 2026-11-28).
    await expectExactEveryWay('</html>x<p></html><!--c-->', [['p', { kind: 'remove' }]], kinds);
    expect([...kinds]).toEqual([]);
    // A copy written with its content set, closed by its own end tag: that tag, written, takes it off the
    // list; no other `</i>` (which closed the i around it) for a copy in removed content (random seed 44).
    await expectExactEveryWay('<a><i><i class=k><a></i><i class=k>', [['.k', { kind: 'inner' }]], kinds);
    expect([...kinds]).toEqual([]);
    // A copy written under a new name: an end tag of that name the input's parser ignored is left out
    // while it is open, as for the element it copies (random seed 62).
    await expectExactEveryWay('<a href=1><i class=k></a>x</span><i class=k>', [['.k', { kind: 'rename', to: 'span' }]], kinds);
    expect([...kinds]).toEqual([]);
    // A comment in a table replaced by text: a parser puts that text before the table.
    await refused('<table></p><!--c-->', [['table', { kind: 'comment-replace' }]], /^HTMLRewriter: the text "\[c\]" in the <table> cannot be written so that a browser builds the same tree/);
    await refused('<table><tr><!--c--></table>', [['tr', { kind: 'comment-replace' }]], /^HTMLRewriter: the text "\[c\]" in the <tr> cannot be written/);
    // Text content next to a table's whitespace, or in its place.
    for (const [input, selector, how] of [['<table> <tr>', 'table', 'after'], ['<table> <tr>', 'table', 'replace'], ['<table><tr> </table>', 'tr', 'before']] as const) {
      const r = new HTMLRewriter().on(selector, { text: (t) => void (t.text !== '' && t[how]('[t]')) });
      const t = r.createTransformer(() => {});
      expect(() => {
        t.write(input);
        t.end();
      }).toThrow(new RegExp(`^HTMLRewriter: the text "\\[t\\]" in the <${selector}> cannot be written so that a browser builds the same tree`));
    }
    // A copy foster-parented out of a table, unwrapped: a comment in it would be read as the table's
    // (random seed 134), as for any foster-parented element.
    await refused('<table><i><a href=1></i>x</i><!--c-->', [['a', { kind: 'unwrap' }]], /^HTMLRewriter: removeAndKeepContent\(\) on the <a> at offset 25 cannot be written so that a browser builds the same tree: it was foster-parented out of a table/);
    // Text foster-parented into an unwrapped element, out of a removed table: its token is left out with
    // the table, and what it made is in the output's tree.
    await refused('<tr><font><table>x', [['font', { kind: 'unwrap' }], ['table', { kind: 'remove' }]], /^HTMLRewriter: removing content that holds the token at offset 18 .* in the <font>, whose content is kept/);
  });

  it('every change on elements matched by their attributes, which the copies of formatting elements carry too (fast-check, sync and async handlers)', async () => {
    const runs = Number(process.env.FUZZ_RUNS ?? 1);
    await exactOver('attribute selectors', attributeSoup, attributeConfig, 1000 * runs);
    await exactOver('attribute selectors, async handlers', attributeSoup, attributeConfig, 300 * runs, true);
  }, 600_000);

  it('with a small maxBufferedBytes: exact, refused as documented, or stopped by the bound with its error — never another tree (fast-check)', async () => {
    // (Held output, held table text, text behind an async handler: each bound forces the decision at
    // another point of the same soups.)
    const runs = Number(process.env.FUZZ_RUNS ?? 1);
    for (const bound of [8, 24, 64]) {
      await exactOver(`combinators, maxBufferedBytes ${bound}`, combinatorSoup, selectorConfig, 300 * runs, false, bound);
      await exactOver(`combinators, async handlers, maxBufferedBytes ${bound}`, combinatorSoup, selectorConfig, 100 * runs, true, bound);
      await exactOver(`text and comments, maxBufferedBytes ${bound}`, commentedSoup, textChangesOn(NAMES, TARGETS), 300 * runs, false, bound);
      await exactOver(`text and comments, async handlers, maxBufferedBytes ${bound}`, commentedSoup, textChangesOn(NAMES, TARGETS), 100 * runs, true, bound);
      // Released instead: exact wherever nothing was released (the report says when it was).
      await exactOver(`combinators, maxBufferedBytes ${bound}, heldOutput 'release'`, combinatorSoup, selectorConfig, 300 * runs, false, bound, true);
      await exactOver(`text and comments, maxBufferedBytes ${bound}, heldOutput 'release'`, commentedSoup, textChangesOn(NAMES, TARGETS), 200 * runs, false, bound, true);
    }
  }, 600_000);

  it('text and comment changes on every html5lib tree-construction document, whole and in 1-character chunks', async () => {
    const dir = treeConstructionDir();
    if (dir === null) {
      if (process.env.CI) throw new Error('the html5lib tests are missing: under CI this fails');
      return;
    }
    const sets: [string, Change][] = [
      ['table, tbody, tr', { kind: 'comment-remove' }],
      ['b, i, a, body', { kind: 'comment-replace' }],
      ['body', { kind: 'comment-after' }],
      ['td, p, div, li', { kind: 'text-upper' }],
      ['select, option, svg, math', { kind: 'text-upper' }],
    ];
    const kinds = new Map<string, number>();
    const failures: string[] = [];
    let runs = 0;
    for (const [, tests] of readDatFiles(dir)) {
      for (const test of tests) {
        if (test.fragment !== null || test.scripting === false) continue;
        for (const entry of sets) {
          // (Text upper-cased through its source: not where a character reference, a CR or a NUL makes
          // the source differ from the text.)
          if (entry[1].kind === 'text-upper' && /[&\r\0]/.test(test.data)) continue;
          for (const chunks of [[test.data], [...test.data]]) {
            runs++;
            const failure = await check(test.data, chunks, [entry], kinds);
            if (failure !== null) failures.push(`${test.file} #${test.index}: ${failure}`);
          }
        }
      }
    }
    const refused = [...kinds.values()].reduce((a, b) => a + b, 0);
    console.log(`content fuzz, html5lib documents with text and comment changes: ${runs} runs, ${failures.length} not exact, ${refused} refused as documented`);
    expect(failures.slice(0, 3)).toEqual([]);
    expect(runs).toBeGreaterThan(10_000);
  }, 600_000);

  it('comment changes on the 258 corpus pages (htmlparser-benchmark)', async () => {
    const dir = join(import.meta.dirname, '../../bench/node_modules/htmlparser-benchmark/files');
    const names = readdirSync(dir).filter((n) => n.endsWith('.html')).sort();
    expect(names.length).toBe(258);
    const kinds = new Map<string, number>();
    const failures: string[] = [];
    // (One change a page, in turn: a page's rewrite and the two trees compared take about 40 ms here.)
    const sets: [string, Change][] = [['table, tbody, tr, td, ul', { kind: 'comment-remove' }], ['div, span, p, li', { kind: 'comment-replace' }], ['body', { kind: 'comment-after' }]];
    for (const [i, name] of names.entries()) {
      const input = readFileSync(join(dir, name), 'utf8');
      const failure = await check(input, [input], [sets[i % sets.length]!], kinds);
      if (failure !== null) failures.push(`${name}: ${failure.slice(0, 400)}`);
    }
    const refused = [...kinds.values()].reduce((a, b) => a + b, 0);
    console.log(`content fuzz, corpus with comment changes: ${names.length} rewrites, ${failures.length} not exact, ${refused} refused as documented`);
    expect(failures.slice(0, 3)).toEqual([]);
  }, 600_000);

  it('the byte path (createByteTransformer) writes what the string path writes, or fails alike, with these changes (fast-check)', async () => {
    // (The byte path tokenizes UTF-8 in byte form and maps its decisions back to bytes: a soup with
    // non-ASCII text and attribute values, cut anywhere — inside a character too.)
    const utf8 = new TextEncoder();
    const nonAscii = fc.array(fc.oneof(COMMENTED_PART, fc.constantFrom('é', '€ ', '<b title=ü>', '<!--ä-->', '😀', '<i class=k>ø')), { maxLength: 14 }).map((p) => p.join(''));
    const outcome = async (run: () => Promise<string>): Promise<string> => {
      try {
        return await run();
      } catch (err) {
        // (Offsets count bytes on one path and UTF-16 code units on the other.)
        return `error: ${(err as Error).message.replace(/offset \d+/g, 'offset N')}`;
      }
    };
    const runs = Number(process.env.FUZZ_RUNS ?? 1);
    for (const async of [false, true]) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(nonAscii, commentedSoup, attributeSoup), fc.array(fc.nat(), { maxLength: 6 }), fc.oneof(textChangesOn(NAMES, TARGETS), attributeConfig), async (input, cuts, entries) => {
          const bytes = utf8.encode(input);
          const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          // The string path on the same chunks, decoded as a stream (a character cut in two arrives whole).
          const decoder = new TextDecoder();
          const chunks = [...at, bytes.length].map((c, i, all) => decoder.decode(bytes.subarray(i === 0 ? 0 : all[i - 1], c), { stream: true }));
          const viaStrings = await outcome(() => rewrite(chunks, entries, async));
          const viaBytes = await outcome(async () => {
            const r = new HTMLRewriter();
            handlersFor(r, entries, async);
            const pieces: Uint8Array[] = [];
            const t = r.createByteTransformer((b) => void pieces.push(b));
            let prev = 0;
            for (const c of [...at, bytes.length]) {
              await t.write(bytes.subarray(prev, c));
              prev = c;
            }
            await t.end();
            return new TextDecoder().decode(Buffer.concat(pieces));
          });
          expect(viaBytes, `${JSON.stringify(input)} ${JSON.stringify(entries)} cut at ${JSON.stringify(at)}`).toBe(viaStrings);
        }),
        { numRuns: (async ? 200 : 600) * runs },
      );
    }
  }, 600_000);

  it('every change on generated tag soup, any chunking (fast-check)', async () => {
    await exactOver('tag soup', fc.oneof(namedSoup, tagSoup, rearranging), config, 3000);
  }, 600_000);

  it('every change on the formatting elements, in tables with text: foster parenting, table text and reconstruction together (fast-check)', async () => {
    await exactOver('formatting elements in tables', fosteringSoup, formattingConfig, 1500);
  }, 600_000);

  it('the same with async handlers (the ops wait behind each handler, and table text waits with them)', async () => {
    await exactOver('formatting elements in tables, async handlers', fosteringSoup, formattingConfig, 600, true);
  }, 600_000);

  it('a copy of a formatting element unwrapped: its end tag is left out, and what that tag closed besides is closed explicitly', async () => {
    // `</a>` closes the font inside the copy of the a; without that copy a browser reading `</a>` would
    // not (found by random seed 7 of the combinator soup, 2026-11-28).
    const kinds = new Map<string, number>();
    for (const input of ['<p><a>1</p><font>2</a>x', '<p><a>1</p><font><i>2</a>x</font>y', '<a><table>x<a></table><font><caption></a><table>x']) {
      for (const selector of ['body > a', 'a:not(:first-child)']) await expectExactEveryWay(input, [[selector, { kind: 'unwrap' }]], kinds);
    }
    expect([...kinds]).toEqual([]); // none refused
  });

  it('found by the combinator selectors on the region soups (2026-11-28): exact, or refused as documented', async () => {
    const kinds = new Map<string, number>();
    // A token that closes an unwrapped element and reconstructs a formatting element it also closed:
    // the pops between are written before the copy, which goes where the input's parser put it.
    for (const input of ['<button><span><a><button>x', '<select><span><i><input>', '<select><i><span><b><input>']) {
      await expectExactEveryWay(input, [['span', { kind: 'unwrap' }]], kinds);
    }
    // Text after `</html>` or `</body>` takes the parser back into the body; removed, an ignored end
    // tag does that for the output, or the comment after it would go into the document.
    for (const [input, name] of [['<option></html><<!--c-->', 'option'], ['<p></body>x<!--c-->', 'p'], ['<p></html> x <!--c--><i>y', 'p']] as const) {
      await expectExactEveryWay(input, [[name, { kind: 'text-remove' }]], kinds);
    }
    // The same after foster parenting: the copy comes after its foster-parenting entry.
    await expectExactEveryWay('<p><table><a><table><i><a>', [['p > a', { kind: 'rename', to: 'span' }]], kinds);
    expect([...kinds]).toEqual([]);
    const refused = async (input: string, entries: [string, Change][], message: RegExp): Promise<void> => {
      for (const async of [false, true]) await expect(rewrite([input], entries, async)).rejects.toThrow(message);
    };
    // `<hr>` (and `<optgroup>`) in a select closes what implies its end, optgroups too, from the current
    // node: without the unwrapped i, the optgroup is the current node.
    await refused('<select><b><optgroup><i><hr>', [['b i', { kind: 'unwrap' }]], /^HTMLRewriter: the <hr> at offset 24 cannot be written so that a browser builds the same tree/);
    await refused('<select><b><optgroup><i><optgroup>', [['b i', { kind: 'unwrap' }]], /^HTMLRewriter: the <optgroup> at offset 24 cannot be written/);
    // A copy of a copy written with a changed tag: the output's parser copies it as written.
    await refused('<table><b><table><span><div></b>', [['b:nth-of-type(2)', { kind: 'attribute' }]], /the <b> the parser makes at offset 28 is a copy of an earlier <b>/);
  });

  it('found by random seeds 191–196 at 60 times the runs (2026-11-29): exact, or refused as documented', async () => {
    const kinds = new Map<string, number>();
    for (const [input, entries] of [
      // An end tag of a renamed element's new name, which the input's parser ignored: left out while the
      // output parser's list has the renamed element's entry, closed or not (that parser would take it off).
      ['<p><i></p></em><p> ', [['i', { kind: 'rename', to: 'em' }]]],
      ['<p><i><b></p></em><p>x', [['i', { kind: 'rename', to: 'em' }]]],
      ['<p><i></p><b></em>x</b><p>y', [['i', { kind: 'rename', to: 'em' }]]],
      // (Ignored after placing the whitespace a table held: left out, and `</caption>` places it.)
      ['<p><i></p><table> </em>x', [['i', { kind: 'rename', to: 'em' }]]],
      // A token left out that placed whitespace held in a table: an ignored end tag places it, or it
      // joins the text after it and goes out of the table with it.
      ['<table><a><table> </a>x', [['a', { kind: 'remove' }]]],
      ['<table> <span></span>x', [['span', { kind: 'remove' }]]],
      ['<table> <a></a>x', [['a', { kind: 'remove' }]]],
      ['<table><tr> <span></span>x<td>', [['span', { kind: 'remove' }]]],
      // (Content after the p goes into the outer b, whose entry ends the list's tail: `</b>` takes the
      // inner b's entry off, as it does for a browser.)
      ['<b><p><b></p>x', [['p', { kind: 'after' }]]],
      // (Seed 196.) A removed copy that an `<a>` start tag closes and takes off the list: the output's
      // parser has the original's entry, which the copy of the i written before that tag would copy.
      ['<div class=k><i class=k><a></i><i class=k><a href=1>', [['div.k > a', { kind: 'remove' }]]],
      ['<div><b><nobr></b><b><nobr>x', [['div > nobr', { kind: 'remove' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
    // Content in a b that Noah's Ark took off the list, with closed b's after it to take off: `</b>` would
    // close the outer b (the adoption agency algorithm's step 2).
    for (const async of [false, true]) {
      for (const chunks of [['<b><font class=k><b><b><b></font>'], [...'<b><font class=k><b><b><b></font>']]) {
        await expect(rewrite(chunks, [['font', { kind: 'after' }]], async)).rejects.toThrow(/^HTMLRewriter: content in the <b> here cannot be written so that a browser builds the same tree: .*adoption agency algorithm's step 2/);
      }
    }
  });

  it('found by a random seed (2026-12-07): an element that outlived a removed element around it stays left out to its end, whatever its own handlers do', async () => {
    // `<a>` in a table under an `a` takes the first a off the stack (§13.2.6.4.7: not in scope, the
    // adoption agency algorithm does nothing) while the elements inside it stay open: they, their
    // content, what handlers put at their end or after them, and their end tags are in the removed a.
    const kinds = new Map<string, number>();
    for (const [input, entries] of [
      ['</table><a><tr>x<tr><i><table>x<a>', [['a', { kind: 'remove' }], ['i', { kind: 'append' }]]],
      ['<a><i><table><a>', [['a', { kind: 'remove' }], ['i', { kind: 'append' }]]],
      ['<a><i><table><a></table></i>x', [['a', { kind: 'remove' }], ['i', { kind: 'append' }]]],
      ['<a><i><table><a></table>y</i>z', [['a', { kind: 'remove' }], ['i', { kind: 'end-before' }]]],
      ['<a><div><table><a></table></div>x', [['a', { kind: 'remove' }], ['div', { kind: 'after' }]]],
      ['<a><div><table><a></table></div>x', [['a', { kind: 'remove' }], ['div', { kind: 'remove' }]]],
      ['<a><div><table><a></table></div>x', [['a', { kind: 'remove' }], ['div', { kind: 'replace' }]]],
      ['<a><select><a>y</select>z', [['a', { kind: 'remove' }], ['select', { kind: 'append' }]]],
      ['<a><select><a>y</select>z', [['a', { kind: 'remove' }], ['select', { kind: 'end-after' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
  });

  it('before() on a table: exact, or refused where the parser foster-parents content in front of the table later', async () => {
    const kinds = new Map<string, number>();
    for (const [input, entries] of [
      ['<table><tr><td>x</table>', [['table', { kind: 'before' }]]],
      ['<p>a<table> <tr> </table>b', [['table', { kind: 'before' }]]],
      ['<p>a</p><table>x', [['p', { kind: 'after' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
    for (const async of [false, true]) {
      for (const input of ['<table>x', '<table><tr>x<td>', '<table><div></div></table>', '<b><table></b>x', '<table><a><table>x</table></table>']) {
        for (const chunks of [[input], [...input]]) {
          await expect(rewrite(chunks, [['table', { kind: 'before' }]], async)).rejects.toThrow(/^HTMLRewriter: content before the <table>.* cannot be written so that a browser builds the same tree: the parser foster-parented content in front of the <table>/);
        }
      }
    }
  });

  it('found by random seed 1207 (2026-12-07): a token left out that foster-parented held table text is replaced by </caption>', async () => {
    // The output's parser would still hold the text, and whitespace after it would join it and leave the
    // table with it: `</table><font><table>x</b> ` with the font unwrapped (`</b>`, ignored, placed the x).
    const kinds = new Map<string, number>();
    for (const [input, entries] of [
      ['</table><font><table>x</b> ', [['font', { kind: 'unwrap' }]]],
      ['<font><table>x</font> ', [['font', { kind: 'unwrap' }]]],
      ['<table>x<span></span> ', [['span', { kind: 'remove' }]]],
      ['<table><tr>x<span></span> <td>', [['span', { kind: 'remove' }]]],
      ['<table>x<a></a> y', [['a', { kind: 'remove' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
  });

  it("found by random seed 1241 (2026-12-07): copies written into an open formatting element that Noah's Ark took off the list are refused where the end tags written first would close it", async () => {
    // The copies of the three inner fonts (reconstructed for the x, in the first font) get content of
    // their own, so each is written with a start tag, after a </font> for each original; Noah's Ark took
    // the first font's entry off, so a browser's first </font> closes it (§13.2.6.4.7 step 2).
    const refused = /^HTMLRewriter: the copies of <(font|b)> the parser makes in the <(font|b)> here cannot be written so that a browser builds the same tree: .*adoption agency algorithm's step 2/;
    for (const input of ['<font class=k><a><font class=k><font class=k><font class=k></a>x', '<b class=k><a><b class=k><b class=k><b class=k></a>x']) {
      for (const async of [false, true]) {
        for (const chunks of [[input], [...input]]) await expect(rewrite(chunks, [['.k', { kind: 'prepend' }]], async)).rejects.toThrow(refused);
      }
    }
    // With its entry in the list, the </font> takes the last font's instead: exact.
    const kinds = new Map<string, number>();
    await expectExactEveryWay('<font class=k><a><font class=k></a>x', [['.k', { kind: 'prepend' }]], kinds);
    expect([...kinds]).toEqual([]);
  });

  it('found by random seed 1235 (2026-12-07): a start tag read at an integration point the output leaves out is refused where a browser would read it by other rules', async () => {
    // The <td> closes the removed font, so it is written; the input's parser read it at the svg title (an
    // HTML integration point: the insertion mode's rules, a td in the table), a browser reading the
    // output reads it at the svg (foreign content: an SVG td).
    for (const [input, name, tag] of [
      ['<table><svg><font><title><td>', 'font', 'td'],
      ['<table><svg><g><desc><tr>', 'g', 'tr'],
    ]) {
      const refused = new RegExp(`^HTMLRewriter: the tag <${tag}> at offset \\d+, which the parser reads in the <(title|desc)> the output leaves out, cannot be written so that a browser builds the same tree: .* in the <svg> instead, by the rules for foreign content`);
      for (const async of [false, true]) {
        for (const chunks of [[input!], [...input!]]) await expect(rewrite(chunks, [[name!, { kind: 'remove' }]], async)).rejects.toThrow(refused);
      }
    }
    // Exact where the tag stays inside the removed content, or nothing is left out.
    const kinds = new Map<string, number>();
    for (const [input, entries] of [
      ['<svg><font><title><p>x</font>y', [['font', { kind: 'remove' }]]],
      ['<table><svg><font><title><td>', [['title', { kind: 'attribute' }]]],
      ['<svg><title><b>x</b></title></svg><p>', [['svg', { kind: 'remove' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
  });

  it('found by random seed 1229 (2026-12-07): a formatting element above a table that a left-out table tag closed is closed by the implied tag written for it, its entry kept; table text a browser would then put in no copy is refused', async () => {
    // The td's start tag closes the copy of the a the first x went into (it clears the stack back to a
    // table context) and keeps its entry, so the second x, held in the table, goes into a new copy.
    // Written as `</a>`, that close would take the entry off a browser's list too (no copy for the x);
    // the explicit `<tbody>` written for the td closes it the same way the td did.
    const kinds = new Map<string, number>();
    for (const [input, entries] of [
      ['<table><a><table>x<td><a></td>x', [['td', { kind: 'remove' }]]],
      ['<table><a><table>x<tr><td></td></tr>x', [['tr', { kind: 'remove' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
    // Where the table tag left out makes no implied element to write (its own element is the one
    // removed), no tag closes the copy and keeps its entry: refused, never written without the copy.
    const refused = 'the text the parser holds in the table before offset N cannot be written so that';
    for (const [input, name] of [
      ['<table><a><table>x<caption></caption>x', 'caption'],
      ['<table><a><table>x<colgroup></colgroup>x', 'colgroup'],
      ['<table><a><table>x<tbody></tbody>x', 'tbody'],
    ]) {
      const seen = new Map<string, number>();
      await expectExactEveryWay(input!, [[name!, { kind: 'remove' }]], seen);
      expect([...seen.keys()]).toEqual([refused]);
    }
  });

  it("found by random seed 1226 (2026-12-07): an element left out that the adoption agency algorithm's inner loop counts is refused where a browser reading the output would copy what the input's parser drops", async () => {
    // The inner loop takes a formatting element off the list and the stack past its third iteration
    // (§13.2.6.4.7 step 4.13.4) and copies it up to then: with the span not in the output, a browser
    // reaches the first i one iteration earlier and makes a third copy of the i around the div.
    const refused = /^HTMLRewriter: leaving out the <span> that the adoption agency algorithm of the token at offset \d+ passes on its way to a <i> cannot be written so that a browser builds the same tree: .*step 4\.13\.4.* reaches it on iteration 3 and makes a copy of it instead/;
    for (const [input, entries] of [
      ['<a><i class=k><i class=k><i class=k><span title=y><div><a>', [['[title]', { kind: 'unwrap' }]]],
      ['<b><i><i><i><span><div></b>', [['span', { kind: 'unwrap' }]]],
      ['<b><i><u><s><span><div></b>x', [['span', { kind: 'unwrap' }]]],
      ['<a><i><i><i><em><span><div><a>', [['span', { kind: 'unwrap' }]]],
    ] as [string, [string, Change][]][]) {
      for (const async of [false, true]) {
        for (const chunks of [[input], [...input]]) await expect(rewrite(chunks, entries, async)).rejects.toThrow(refused);
      }
    }
    // With the span above the elements the loop copies, a browser reading the output passes the third
    // iteration too before it reaches the first i: not this refusal (but the copies the algorithm makes
    // of the elements inside an unwrapped one are refused, alignment.ts `detachCopyOriginals`).
    for (const async of [false, true]) {
      await expect(rewrite(['<b><i><span><i><i><u><div></b>'], [['span', { kind: 'unwrap' }]], async)).rejects.toThrow(/^HTMLRewriter: the copy of <u> the adoption agency algorithm makes here cannot be written/);
    }
    // Exact where nothing on the loop's way is left out.
    const kinds = new Map<string, number>();
    for (const [input, entries] of [
      ['<a><i><i><i><span title=y><div><a>', [['[title]', { kind: 'attribute' }]]],
      ['<b><i><i><i><span><div></b>', [['span', { kind: 'rename', to: 'x-span' }]]],
    ] as [string, [string, Change][]][]) {
      await expectExactEveryWay(input, entries, kinds);
    }
    expect([...kinds]).toEqual([]);
  });

  it('a copy a reconstruction makes for table text, changed by a handler, comes before that text; content after that text joins it', async () => {
    const kinds = new Map<string, number>();
    const cases: [string, string][] = [
      ['<table><a><table>x', 'a'],
      ['<table><a><table>x</table>y', 'a'],
      ['<b><table><a><table>x', 'a'],
      ['<table><i><table> x<td>', 'i'],
      ['<table><a><tr>x', 'a'],
      // (The copy made for the text is no effect of the <b>'s to write: the output's parser makes it.)
      ['<table><a><table>x<b>', 'b'],
      ['<table><a><table>x<b>y', 'b'],
      ['<table><a><table>x<i>', 'i'],
      // (A copy removed ends what it removes where it closes: the caption after it stays.)
      ['<table><a><table>x<font><table><a><caption>x', 'font'],
      ['<p><b>x<p>y</b>z', 'b'],
    ];
    for (const [input, name] of cases) {
      for (const kind of ['before', 'after', 'prepend', 'attribute', 'rename', 'remove', 'unwrap'] as const) {
        const change: [string, Change] = [name, kind === 'rename' ? { kind, to: `x-${name}` } : { kind }];
        // (And with a text handler, which makes table text wait until it is placed: random seed 23232.)
        for (const entries of [[change], [change, ['span', { kind: 'text-remove' }] as [string, Change]]]) {
          await expectExactEveryWay(input, entries, kinds);
        }
      }
    }
  });
});
