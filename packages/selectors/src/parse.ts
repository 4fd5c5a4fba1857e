/**
 * Selector parsing: css-what reads the text (a maintained, widely used parser); this file checks the
 * result as a browser's parser would (Selectors 4 §16 "Grammar"; what Chromium accepts in
 * `querySelectorAll`) and compiles css-what's token lists into `ast.ts`'s form. Everything invalid throws
 * an `InvalidSelectorError` naming the part.
 */
import { parse as cssWhatParse, type Selector as Token, SelectorType } from 'css-what';
import { asciiLowercase } from './ascii.js';
import type {
  AttributeOperator,
  AttributeTest,
  CaseMode,
  Combinator,
  CompoundSelector,
  NamespaceTest,
  PseudoClass,
  PseudoClassTest,
  RelativeSelector,
  SelectorList,
} from './ast.js';
import { InvalidSelectorError } from './errors.js';
import { dropInvalidParts, mayHaveForgivingList } from './forgiving.js';
import { findInvalidName } from './identifiers.js';
import { parseNth } from './nth.js';

/** Options of {@link parseSelectorList}. */
export interface ParseOptions {
  /**
   * Applied to every name and value the compiled form holds (type names, attribute names and values),
   * e.g. the rewriter's byte form for elements parsed from bytes. Default: none.
   */
  readonly form?: (s: string) => string;
}

/**
 * Pseudo-classes that are valid but match nothing in a document no user interacts with and nothing
 * renders (Selectors 4 §9 "User action pseudo-classes", §8 location, §11 time-dimensional, media and
 * element display state), and the shadow-tree ones outside a shadow tree. Chromium accepts them in
 * `querySelectorAll` and (in a page nobody touches) they match nothing there either.
 */
const NEVER_PSEUDO_CLASSES = new Set([
  'hover', 'active', 'focus', 'focus-visible', 'focus-within', 'visited', 'target', 'target-within',
  'current', 'past', 'future', 'playing', 'paused', 'seeking', 'buffering', 'stalled', 'muted',
  'volume-locked', 'fullscreen', 'modal', 'popover-open', 'picture-in-picture', 'autofill',
  '-webkit-autofill', 'user-valid', 'user-invalid', 'host', 'xr-overlay', 'active-view-transition',
]);
/** Functional ones of the same kind: `:host(…)`, `:host-context(…)`, `:state(…)` (custom states). */
const NEVER_FUNCTIONS = new Set(['host', 'host-context', 'state', 'active-view-transition-type']);

/**
 * Valid pseudo-classes sluice does not evaluate: they depend on form state, language or directionality
 * sluice's DOM does not compute. Compiled as `unsupported`; the DOM throws a NotSupportedError naming it.
 */
const UNSUPPORTED_PSEUDO_CLASSES = new Set([
  'default', 'indeterminate', 'valid', 'invalid', 'in-range', 'out-of-range', 'open', 'closed', 'blank',
]);
const UNSUPPORTED_FUNCTIONS = new Set(['lang', 'dir']);

/** Pseudo-elements Chromium knows (querySelector never returns one, so they match nothing). */
const PSEUDO_ELEMENTS = new Set([
  'before', 'after', 'first-line', 'first-letter', 'marker', 'placeholder', 'selection', 'backdrop',
  'file-selector-button', 'cue', 'spelling-error', 'grammar-error', 'target-text', 'search-text',
  'details-content', 'view-transition', 'column', 'scroll-marker', 'scroll-marker-group', 'picker-icon',
  'checkmark',
]);
const PSEUDO_ELEMENT_FUNCTIONS = new Set([
  'part', 'slotted', 'highlight', 'cue', 'view-transition-group', 'view-transition-image-pair',
  'view-transition-old', 'view-transition-new', 'scroll-button', 'picker',
]);

const OPERATORS: Partial<Record<string, AttributeOperator>> = {
  exists: 'exists',
  equals: 'equals',
  element: 'includes',
  hyphen: 'dash',
  start: 'prefix',
  end: 'suffix',
  any: 'substring',
};

const same = (s: string): string => s;

/** css-what's token lists by selector text (read only, never changed), bounded: cleared when full. */
const tokenCache = new Map<string, Token[][]>();
/** Compiled lists (no `form`) by selector text: a page's scripts query the same few selectors again and again. */
const compiledCache = new Map<string, SelectorList>();
const MAX_CACHED = 512;

/**
 * Parse and check `selector` (a selector list, as `querySelectorAll` takes). Throws an
 * {@link InvalidSelectorError} (name `SyntaxError`) naming what is invalid. The result is immutable and
 * may be shared: calls with the same text (and no `form`) return the same object.
 */
export function parseSelectorList(selector: string, options: ParseOptions = {}): SelectorList {
  const form = options.form ?? same;
  if (form === same) {
    const cached = compiledCache.get(selector);
    if (cached !== undefined) return cached;
  }
  let tokens = tokenCache.get(selector);
  if (tokens === undefined) {
    const text = mayHaveForgivingList(selector) ? dropInvalidParts(selector, isValidPart) : selector;
    const badName = findInvalidName(text);
    if (badName !== null) throw new InvalidSelectorError(selector, badName);
    try {
      tokens = cssWhatParse(text);
    } catch (err) {
      throw new InvalidSelectorError(selector, describeCssWhatError(selector, (err as Error).message));
    }
    if (tokenCache.size >= MAX_CACHED) tokenCache.clear();
    tokenCache.set(selector, tokens);
  }
  const list = new Compiler(selector, form).list(tokens, false);
  if (form === same) {
    if (compiledCache.size >= MAX_CACHED) compiledCache.clear();
    compiledCache.set(selector, list);
  }
  return list;
}

/** Whether one part of a forgiving list parses (`forgiving.ts`). */
function isValidPart(part: string): boolean {
  if (part.trim() === '') return false;
  try {
    const list = parseSelectorList(part);
    // A pseudo-element is not allowed in :is()/:where() (it would be dropped there too).
    return !list.some((c) => c.compounds.some((k) => k.pseudos.some((p) => p.kind === 'never' && p.pseudoElement)));
  } catch {
    return false;
  }
}

/** css-what's messages, said with the words of the grammar where we can. */
function describeCssWhatError(selector: string, message: string): string {
  if (selector.trim() === '') return 'it is empty';
  if (/Empty sub-selector/.test(message)) return 'it has an empty selector in a list (a stray or trailing comma, or "()")';
  if (/successive traversals/.test(message)) return 'two combinators in a row';
  return message;
}

function isCombinator(t: Token): boolean {
  return (
    t.type === SelectorType.Descendant ||
    t.type === SelectorType.Child ||
    t.type === SelectorType.Adjacent ||
    t.type === SelectorType.Sibling ||
    t.type === SelectorType.Parent ||
    t.type === SelectorType.ColumnCombinator
  );
}

function combinatorText(t: Token): string {
  switch (t.type) {
    case SelectorType.Child:
      return '>';
    case SelectorType.Adjacent:
      return '+';
    case SelectorType.Sibling:
      return '~';
    case SelectorType.Parent:
      return '<';
    case SelectorType.ColumnCombinator:
      return '||';
    default:
      return ' ';
  }
}

class Compiler {
  /** Depth of `:has()` arguments we are in (`:has()` does not nest, Selectors 4 §4.5). */
  private inHas = 0;

  constructor(
    private readonly source: string,
    private readonly form: (s: string) => string,
  ) {}

  private invalid(detail: string): never {
    throw new InvalidSelectorError(this.source, detail);
  }

  list(lists: Token[][], nested: boolean): SelectorList {
    if (lists.length === 0) this.invalid(nested ? 'a pseudo-class has an empty selector list' : 'it is empty');
    return lists.map((tokens) => this.complex(tokens).selector);
  }

  /** A complex selector; with `relative`, a leading combinator is allowed (`:has()`'s argument). */
  complex(tokens: Token[], relative = false): RelativeSelector {
    if (tokens.length === 0) this.invalid('it has an empty selector in a list');
    let leading: Combinator = 'descendant';
    let start = 0;
    if (isCombinator(tokens[0]!)) {
      if (!relative) {
        this.invalid(`the leading combinator "${combinatorText(tokens[0]!)}" has nothing on its left (relative selectors are allowed only in :has())`);
      }
      leading = this.combinator(tokens[0]!);
      start = 1;
    }
    const compounds: CompoundSelector[] = [];
    const combinators: Combinator[] = [];
    let current: Token[] = [];
    for (let i = start; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (!isCombinator(t)) {
        current.push(t);
        continue;
      }
      if (current.length === 0) this.invalid('two combinators in a row');
      compounds.push(this.compound(current, false));
      current = [];
      combinators.push(this.combinator(t));
    }
    if (current.length === 0) this.invalid('it ends with a combinator');
    compounds.push(this.compound(current, true));
    return { combinator: leading, selector: { compounds, combinators } };
  }

  private combinator(t: Token): Combinator {
    switch (t.type) {
      case SelectorType.Descendant:
        return 'descendant';
      case SelectorType.Child:
        return 'child';
      case SelectorType.Adjacent:
        return 'adjacent';
      case SelectorType.Sibling:
        return 'sibling';
      default:
        this.invalid(`the combinator "${combinatorText(t)}" is not one browsers support`);
    }
  }

  private namespaceTest(ns: string | null, where: string): NamespaceTest {
    if (ns === null || ns === '*') return 'any';
    if (ns === '') return 'none';
    this.invalid(`the namespace prefix "${ns}|" in ${where} is not declared (a query has no @namespace rules)`);
  }

  /** One compound; `last`: the rightmost of its complex selector (where a pseudo-element may be). */
  private compound(tokens: Token[], last: boolean): CompoundSelector {
    let tag: string | null = null;
    let namespace: NamespaceTest = 'any';
    const attributes: AttributeTest[] = [];
    const pseudos: PseudoClass[] = [];
    let pseudoElement: string | null = null;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (pseudoElement !== null && t.type !== SelectorType.Pseudo) {
        this.invalid(`the pseudo-element "${pseudoElement}" must end its compound selector`);
      }
      switch (t.type) {
        case SelectorType.Tag:
        case SelectorType.Universal: {
          if (i > 0) this.invalid(`the type selector "${t.type === SelectorType.Tag ? t.name : '*'}" must come first in its compound selector`);
          if (t.type === SelectorType.Tag) {
            tag = this.form(t.name);
            namespace = this.namespaceTest(t.namespace, `"${t.namespace}|${t.name}"`);
          } else {
            namespace = this.namespaceTest(t.namespace, `"${t.namespace}|*"`);
          }
          break;
        }
        case SelectorType.Attribute:
          attributes.push(this.attribute(t));
          break;
        case SelectorType.Pseudo:
          pseudos.push(this.pseudoClass(t.name, t.data));
          break;
        case SelectorType.PseudoElement: {
          const name = `::${t.name}`;
          const known = t.data === null ? PSEUDO_ELEMENTS.has(t.name) : PSEUDO_ELEMENT_FUNCTIONS.has(t.name);
          if (!known && !t.name.startsWith('-webkit-')) this.invalid(`the pseudo-element "${name}${t.data === null ? '' : '()'}" is unknown`);
          if (!last) this.invalid(`the pseudo-element "${name}" must be at the end of the selector`);
          if (this.inHas > 0) this.invalid(`the pseudo-element "${name}" is not allowed in :has()`);
          if (pseudoElement !== null) this.invalid(`two pseudo-elements "${pseudoElement}" and "${name}" in a row`);
          pseudoElement = name;
          pseudos.push({ kind: 'never', name: `${name}${t.data === null ? '' : '()'}`, pseudoElement: true });
          break;
        }
        default:
          this.invalid(`unexpected ${String((t as Token).type)}`);
      }
    }
    return { tag, tagLower: tag === null ? null : asciiLowercase(tag), namespace, attributes, pseudos };
  }

  private attribute(t: Extract<Token, { type: SelectorType.Attribute }>): AttributeTest {
    const operator = OPERATORS[t.action];
    if (operator === undefined) {
      this.invalid(`the attribute operator "${t.action === 'not' ? '!=' : t.action}" in [${t.name}] is not standard CSS`);
    }
    if (t.namespace !== null && t.namespace !== '*' && t.namespace !== '') {
      this.invalid(`the namespace prefix "${t.namespace}|" in [${t.namespace}|${t.name}] is not declared (a query has no @namespace rules)`);
    }
    const caseMode: CaseMode = t.ignoreCase === true ? 'i' : t.ignoreCase === false ? 's' : t.ignoreCase === 'quirks' ? 'quirks' : 'default';
    const form = this.form;
    return {
      name: form(t.name),
      nameLower: form(asciiLowercase(t.name)),
      anyNamespace: t.namespace === '*',
      operator,
      value: form(t.value),
      valueLower: form(asciiLowercase(t.value)),
      caseMode,
    };
  }

  private selectorArgument(name: string, data: string | Token[][] | null): Token[][] {
    if (!Array.isArray(data)) this.invalid(`":${name}" needs a selector list in parentheses`);
    return data;
  }

  private pseudoClass(name: string, data: string | Token[][] | null): PseudoClass {
    return { ...this.pseudoTest(name, data), name: `:${name}${data === null ? '' : '()'}` };
  }

  private pseudoTest(name: string, data: string | Token[][] | null): PseudoClassTest {
    switch (name) {
      case 'first-child':
      case 'last-child':
      case 'only-child':
      case 'first-of-type':
      case 'last-of-type':
      case 'only-of-type':
      case 'root':
      case 'scope':
      case 'empty':
      case 'link':
      case 'any-link':
      case 'checked':
      case 'disabled':
      case 'enabled':
      case 'defined':
      case 'required':
      case 'optional':
      case 'read-only':
      case 'read-write':
      case 'placeholder-shown':
        if (data !== null) this.invalid(`":${name}" takes no argument`);
        return simplePseudo(name);
      case 'nth-child':
      case 'nth-last-child':
      case 'nth-of-type':
      case 'nth-last-of-type':
        return this.nth(name, data);
      case 'not':
      case 'is':
      case 'where': {
        const list = this.list(this.selectorArgument(name, data), true);
        return name === 'not' ? { kind: 'not', list } : { kind: 'is', list };
      }
      case 'has': {
        if (this.inHas > 0) this.invalid('":has()" cannot be nested in ":has()"');
        const lists = this.selectorArgument(name, data);
        if (lists.length === 0) this.invalid('":has()" needs a relative selector');
        this.inHas++;
        try {
          return { kind: 'has', relatives: lists.map((tokens) => this.complex(tokens, true)) };
        } finally {
          this.inHas--;
        }
      }
      default:
        if (data === null ? NEVER_PSEUDO_CLASSES.has(name) : NEVER_FUNCTIONS.has(name)) {
          return { kind: 'never', pseudoElement: false };
        }
        if (data === null ? UNSUPPORTED_PSEUDO_CLASSES.has(name) : UNSUPPORTED_FUNCTIONS.has(name)) {
          return { kind: 'unsupported' };
        }
        if (data === null && (NEVER_FUNCTIONS.has(name) || UNSUPPORTED_FUNCTIONS.has(name))) this.invalid(`":${name}" needs an argument`);
        return this.invalid(`the pseudo-class ":${name}${data === null ? '' : '()'}" is unknown`);
    }
  }

  private nth(name: string, data: string | Token[][] | null): PseudoClassTest {
    if (typeof data !== 'string') this.invalid(`":${name}" needs an An+B argument`);
    const last = name.startsWith('nth-last');
    const ofType = name.endsWith('of-type');
    const ofAt = ofType ? null : /\s+of\s+/i.exec(data);
    const formula = ofAt === null ? data : data.slice(0, ofAt.index);
    const nth = parseNth(formula);
    if (nth === null) this.invalid(`":${name}(${data})" is not An+B${ofType ? '' : ' [of S]'}`);
    if (ofType) return { kind: 'nth-of-type', a: nth.a, b: nth.b, last };
    if (ofAt === null) return { kind: 'nth-child', a: nth.a, b: nth.b, last, of: null };
    const ofText = data.slice(ofAt.index + ofAt[0].length);
    let tokens: Token[][];
    try {
      tokens = cssWhatParse(ofText);
    } catch (err) {
      this.invalid(`in ":${name}(${data})": ${(err as Error).message}`);
    }
    return { kind: 'nth-child', a: nth.a, b: nth.b, last, of: this.list(tokens, true) };
  }
}

function simplePseudo(name: string): PseudoClassTest {
  switch (name) {
    case 'first-child':
      return { kind: 'nth-child', a: 0, b: 1, last: false, of: null };
    case 'last-child':
      return { kind: 'nth-child', a: 0, b: 1, last: true, of: null };
    case 'first-of-type':
      return { kind: 'nth-of-type', a: 0, b: 1, last: false };
    case 'last-of-type':
      return { kind: 'nth-of-type', a: 0, b: 1, last: true };
    case 'link':
    case 'any-link':
      return { kind: 'any-link' };
    default:
      // root, scope, empty, checked, disabled, enabled, defined, only-child, only-of-type, required,
      // optional, read-only, read-write, placeholder-shown
      return { kind: name } as PseudoClassTest;
  }
}
