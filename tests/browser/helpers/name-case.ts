/**
 * Chromium's one known deviation in how selectors compare names, modeled so the differentials against
 * it stay exact.
 *
 * HTML §4.16.2 "Case-sensitivity of selectors": a type selector is ASCII-lowercased when compared to the
 * names of HTML elements and compared as written to other elements; an attribute selector's name is
 * lowercased for the (namespace-less) attributes of HTML elements and compared as written to others.
 * sluice and Firefox do that. Chromium compares foreign elements' names and attributes' names ASCII
 * case-insensitively: `<svg><clipPath/></svg>` answers `clippath`, `<svg viewBox>` answers `[viewbox]`.
 *
 * So on a document, a selector's answer can differ only if it names an element or attribute that some
 * foreign element has in another case (`foreignobject` where the tree has SVG `foreignObject`). For
 * such a selector, when those names are all in the rightmost compound's own type and attribute tests,
 * the standard's answer is Chromium's minus the foreign elements that fail the exact-case name tests
 * (the exact rule only ever removes matches there: exact equality implies case-insensitive equality,
 * and a parsed element has at most one attribute per lowercased name). Elsewhere (an ancestor compound,
 * inside `:not()`, `:has()`…, or a list of several selectors) the difference cannot be modeled that
 * simply: `expectedByStandard` says so with null and the caller leaves the answer out, counted.
 */
import { type ComplexSelector, type CompoundSelector, type SelectorList, parseSelectorList } from '@sluice/selectors';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** What the model reads of an element: the DOM's `Element` has this shape. */
export interface NamedElement {
  readonly namespaceURI: string | null;
  readonly localName: string;
  readonly attributes: ArrayLike<{ readonly namespaceURI: string | null; readonly localName: string }>;
}

const lower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The names of a document's foreign elements and of its attributes on them, by their lowercase. */
export interface ForeignNames {
  readonly elements: ReadonlyMap<string, ReadonlySet<string>>;
  readonly attributes: ReadonlyMap<string, ReadonlySet<string>>;
}

export function foreignNames(all: readonly NamedElement[]): ForeignNames {
  const elements = new Map<string, Set<string>>();
  const attributes = new Map<string, Set<string>>();
  const add = (m: Map<string, Set<string>>, name: string) => {
    const k = lower(name);
    (m.get(k) ?? m.set(k, new Set()).get(k)!).add(name);
  };
  for (const el of all) {
    if (el.namespaceURI === HTML_NS) continue;
    add(elements, el.localName);
    for (let i = 0; i < el.attributes.length; i++) add(attributes, el.attributes[i]!.localName);
  }
  return { elements, attributes };
}

/** Whether a foreign element or attribute of the document has this name in another case. */
function differs(names: ReadonlyMap<string, ReadonlySet<string>>, name: string): boolean {
  const have = names.get(lower(name));
  return have !== undefined && [...have].some((n) => n !== name);
}

function compoundDiffers(c: CompoundSelector, names: ForeignNames): boolean {
  return (c.tag !== null && differs(names.elements, c.tag)) || c.attributes.some((a) => differs(names.attributes, a.name));
}

/** Whether a compound's pseudo-classes hold a selector list naming something the document has in another case. */
function pseudosDiffer(c: CompoundSelector, names: ForeignNames): boolean {
  return c.pseudos.some((p) => {
    if (p.kind === 'not' || p.kind === 'is') return listDiffers(p.list, names);
    if (p.kind === 'nth-child') return p.of !== null && listDiffers(p.of, names);
    if (p.kind === 'has') return p.relatives.some((r) => complexDiffers(r.selector, names));
    return false;
  });
}

function complexDiffers(s: ComplexSelector, names: ForeignNames): boolean {
  return s.compounds.some((c) => compoundDiffers(c, names) || pseudosDiffer(c, names));
}

function listDiffers(list: SelectorList, names: ForeignNames): boolean {
  return list.some((s) => complexDiffers(s, names));
}

function parseOrNull(selector: string): SelectorList | null {
  try {
    return parseSelectorList(selector);
  } catch {
    return null; // invalid: both throw, no names to compare
  }
}

/** Whether Chromium's answer for `selector` may differ from the standard's on this document. */
export function chromiumMayDiffer(selector: string, names: ForeignNames): boolean {
  const list = parseOrNull(selector);
  return list !== null && listDiffers(list, names);
}

/** Whether a foreign element passes the compound's type and attribute-name tests compared exactly. */
function exactNames(c: CompoundSelector, el: NamedElement): boolean {
  if (c.tag !== null && el.localName !== c.tag) return false;
  return c.attributes.every((a) => {
    for (let i = 0; i < el.attributes.length; i++) {
      const attr = el.attributes[i]!;
      if ((a.anyNamespace || attr.namespaceURI === null) && attr.localName === a.name) return true;
    }
    return false;
  });
}

/**
 * The standard's answer given Chromium's (`chromium`, indices into `all`, the document's elements in
 * tree order), or null when the deviation reaches past the rightmost compound's own names (not
 * modeled). Call it only where `chromiumMayDiffer`.
 */
export function expectedByStandard(selector: string, chromium: readonly number[], all: readonly NamedElement[], names: ForeignNames): number[] | null {
  const list = parseOrNull(selector);
  // Several complex selectors: which one Chromium matched an element by is not known here.
  if (list === null || list.length !== 1) return null;
  for (const s of list) {
    const last = s.compounds[s.compounds.length - 1]!;
    if (pseudosDiffer(last, names) || s.compounds.slice(0, -1).some((c) => compoundDiffers(c, names) || pseudosDiffer(c, names))) return null;
  }
  return chromium.filter((i) => {
    const el = all[i]!;
    if (el.namespaceURI === HTML_NS) return true;
    // Chromium matched it; the standard keeps it if the names also match exactly (the other tests are
    // the same in both).
    return exactNames(list[0]!.compounds[list[0]!.compounds.length - 1]!, el);
  });
}

/** How an answer was compared: `exact` with Chromium's, `modeled` with Chromium's under the deviation, or `left out`. */
export type Comparison = 'exact' | 'modeled' | 'left out';

/**
 * What sluice's answer for `selector` must be, given Chromium's (indices into `all`, or an error
 * string), and how it was decided. `want` is null when left out.
 */
export function standardAnswer(
  selector: string,
  chromium: readonly number[] | string,
  all: readonly NamedElement[],
  names: ForeignNames,
): { comparison: Comparison; want: readonly number[] | string | null } {
  if (typeof chromium === 'string' || !chromiumMayDiffer(selector, names)) return { comparison: 'exact', want: chromium };
  const want = expectedByStandard(selector, chromium, all, names);
  return want === null ? { comparison: 'left out', want: null } : { comparison: 'modeled', want };
}
