/**
 * Selector parsing: css-what reads the text, this file checks that a stream can decide every part when
 * an element's start tag arrives, and turns css-what's token lists into `ast.ts`'s compiled form.
 *
 * Supported: `*`, type, `.class`, `#id`, `[a]`, `[a=v]`, `~=`, `|=`, `^=`, `$=`, `*=` with `i`/`s`,
 * the descendant, `>`, `+` and `~` combinators, `:nth-child(An+B [of S])`, `:first-child`,
 * `:nth-of-type()`, `:first-of-type`, `:not()`, `:is()`, `:where()`, `:root`, and the `*|` / `|`
 * namespace forms. Everything else is rejected with an error naming the part.
 */
import { parse as cssWhatParse, type Selector as CssWhatToken, SelectorType } from 'css-what';
import type {
  AttributeOperator,
  AttributeTest,
  CaseMode,
  Combinator,
  ComplexSelector,
  CompoundSelector,
  NamespaceTest,
  PseudoTest,
  SelectorList,
  SiblingPrefix,
} from './ast.js';
import { toByteForm } from '@sluice/tokenizer';
import { asciiLowercase } from './attribute.js';
import { parseNth } from './nth.js';

/** Thrown (as a plain Error) for a selector the rewriter cannot use; the message names the part. */
function unsupported(selector: string, what: string, why: string): never {
  throw new Error(`Unsupported selector ${JSON.stringify(selector)}: ${what} ${why}`);
}

const UNDECIDABLE_PSEUDOS = new Set([
  'last-child', 'only-child', 'nth-last-child', 'last-of-type', 'only-of-type', 'nth-last-of-type',
  'empty', 'has', 'contains', 'icontains',
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

const OPERATOR_TEXT: Record<string, string> = { not: '!=' };

/**
 * Parse and check `selector`; throws an Error naming the unsupported or invalid part. With `byteForm`,
 * its names and values are in byte form, to match elements parsed from bytes (`TokenizerOptions.byteInput`).
 */
export function parseSelector(selector: string, byteForm = false): SelectorList {
  if (typeof selector !== 'string') {
    throw new TypeError(`HTMLRewriter.on: the selector must be a string, got ${typeof selector}`);
  }
  let tokens = parsedTexts.get(selector);
  if (tokens === undefined) {
    try {
      tokens = cssWhatParse(selector);
    } catch (err) {
      throw new Error(`Invalid selector ${JSON.stringify(selector)}: ${(err as Error).message}`);
    }
    if (parsedTexts.size >= MAX_PARSED_TEXTS) parsedTexts.clear();
    parsedTexts.set(selector, tokens);
  }
  // Compiled anew each time: the compiled form gets per-rewriter bits and slots (see registry.ts).
  return compileList(selector, tokens, byteForm ? toByteForm : same);
}

/** How the compiled selector holds names and values: as text, or in byte form (see `toByteForm`). */
type Form = (s: string) => string;
const same: Form = (s) => s;

/**
 * css-what's token lists by selector text. The usual way to use the API makes a new rewriter with the
 * same selectors for every response; reading the text is most of what `on()` costs. (The lists are
 * only read.) Bounded: cleared when full.
 */
const parsedTexts = new Map<string, CssWhatToken[][]>();
const MAX_PARSED_TEXTS = 256;

function compileList(source: string, lists: CssWhatToken[][], form: Form): SelectorList {
  if (lists.length === 0) throw new Error(`Invalid selector ${JSON.stringify(source)}: it is empty`);
  return lists.map((tokens) => compileComplex(source, tokens, form));
}

function isCombinator(t: CssWhatToken): boolean {
  return (
    t.type === SelectorType.Descendant ||
    t.type === SelectorType.Child ||
    t.type === SelectorType.Adjacent ||
    t.type === SelectorType.Sibling ||
    t.type === SelectorType.Parent ||
    t.type === SelectorType.ColumnCombinator
  );
}

function compileComplex(source: string, tokens: CssWhatToken[], form: Form): ComplexSelector {
  const compounds: CompoundSelector[] = [];
  const combinators: Combinator[] = [];
  let current: CssWhatToken[] = [];
  if (tokens.length === 0) throw new Error(`Invalid selector ${JSON.stringify(source)}: empty selector in a list`);
  if (isCombinator(tokens[0]!)) {
    unsupported(source, `the leading combinator "${combinatorText(tokens[0]!)}"`, 'needs a scoping element (relative selectors are not supported)');
  }
  for (const t of tokens) {
    if (!isCombinator(t)) {
      current.push(t);
      continue;
    }
    if (current.length === 0) throw new Error(`Invalid selector ${JSON.stringify(source)}: two combinators in a row`);
    compounds.push(compileCompound(source, current, form));
    current = [];
    switch (t.type) {
      case SelectorType.Descendant:
        combinators.push('descendant');
        break;
      case SelectorType.Child:
        combinators.push('child');
        break;
      case SelectorType.Adjacent:
        combinators.push('adjacent');
        break;
      case SelectorType.Sibling:
        combinators.push('sibling');
        break;
      default:
        unsupported(source, `the combinator "${combinatorText(t)}"`, 'is not a standard selector combinator a stream can decide');
    }
  }
  if (current.length === 0) {
    throw new Error(`Invalid selector ${JSON.stringify(source)}: it ends with a combinator`);
  }
  compounds.push(compileCompound(source, current, form));
  const siblingPrefixes: (SiblingPrefix | null)[] = combinators.map((c, i) => {
    if (c !== 'adjacent' && c !== 'sibling') return null;
    const prefixCompounds = compounds.slice(0, i + 1);
    const prefixCombinators = combinators.slice(0, i);
    // A prefix's own sibling prefixes are the same objects as ours, so each gets one bit.
    return { selector: { compounds: prefixCompounds, combinators: prefixCombinators, siblingPrefixes: [] }, bit: -1 };
  });
  // Fill the prefixes' own prefix tables now that all exist (prefix i uses ours below i).
  for (let i = 0; i < siblingPrefixes.length; i++) {
    const p = siblingPrefixes[i];
    if (p) (p.selector as unknown as { siblingPrefixes: (SiblingPrefix | null)[] }).siblingPrefixes = siblingPrefixes.slice(0, i);
  }
  return { compounds, combinators, siblingPrefixes };
}

function combinatorText(t: CssWhatToken): string {
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

function namespaceTest(source: string, ns: string | null, where: string): NamespaceTest {
  if (ns === null || ns === '*') return 'any';
  if (ns === '') return 'none';
  unsupported(source, `the namespace prefix "${ns}|" in ${where}`, 'is not declared (a query has no @namespace rules)');
}

function compileCompound(source: string, tokens: CssWhatToken[], form: Form): CompoundSelector {
  let tag: string | null = null;
  let namespace: NamespaceTest = 'any';
  let sawType = false;
  const attributes: AttributeTest[] = [];
  const pseudos: PseudoTest[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case SelectorType.Tag:
      case SelectorType.Universal: {
        if (sawType) throw new Error(`Invalid selector ${JSON.stringify(source)}: two type selectors in one compound`);
        sawType = true;
        if (t.type === SelectorType.Tag) {
          tag = form(t.name);
          namespace = namespaceTest(source, t.namespace, `"${t.namespace}|${t.name}"`);
        } else {
          namespace = namespaceTest(source, t.namespace, `"${t.namespace}|*"`);
        }
        break;
      }
      case SelectorType.Attribute: {
        const operator = OPERATORS[t.action];
        if (operator === undefined) {
          unsupported(source, `the attribute operator "${OPERATOR_TEXT[t.action] ?? t.action}" in [${t.name}]`, 'is not standard CSS');
        }
        if (t.namespace !== null && t.namespace !== '*' && t.namespace !== '') {
          unsupported(source, `the namespace prefix "${t.namespace}|" in [${t.namespace}|${t.name}]`, 'is not declared (a query has no @namespace rules)');
        }
        const caseMode: CaseMode =
          t.ignoreCase === true ? 'i' : t.ignoreCase === false ? 's' : t.ignoreCase === 'quirks' ? 'quirks' : 'default';
        attributes.push({
          name: form(t.name),
          nameLower: form(asciiLowercase(t.name)),
          anyNamespace: t.namespace === '*',
          operator,
          value: form(t.value),
          valueLower: form(asciiLowercase(t.value)),
          caseMode,
        });
        break;
      }
      case SelectorType.Pseudo:
        pseudos.push(compilePseudo(source, t.name, t.data, form));
        break;
      case SelectorType.PseudoElement:
        unsupported(source, `the pseudo-element "::${t.name}"`, 'has no start tag in the document');
      default:
        throw new Error(`Invalid selector ${JSON.stringify(source)}: unexpected ${String((t as CssWhatToken).type)}`);
    }
  }
  return { tag, tagLower: tag === null ? null : asciiLowercase(tag), namespace, attributes, pseudos };
}

function compilePseudo(source: string, name: string, data: string | CssWhatToken[][] | null, form: Form): PseudoTest {
  switch (name) {
    case 'first-child':
      return { kind: 'nth-child', a: 0, b: 1, of: null };
    case 'first-of-type':
      return { kind: 'nth-of-type', a: 0, b: 1 };
    case 'root':
      return { kind: 'root' };
    case 'nth-child': {
      const text = typeof data === 'string' ? data : '';
      const ofAt = /\s+of\s+/i.exec(text);
      const formula = ofAt === null ? text : text.slice(0, ofAt.index);
      const nth = parseNth(formula);
      if (nth === null) throw new Error(`Invalid selector ${JSON.stringify(source)}: ":nth-child(${text})" is not An+B`);
      if (ofAt === null) return { kind: 'nth-child', a: nth.a, b: nth.b, of: null };
      const ofText = text.slice(ofAt.index + ofAt[0].length);
      let ofTokens: CssWhatToken[][];
      try {
        ofTokens = cssWhatParse(ofText);
      } catch (err) {
        throw new Error(`Invalid selector ${JSON.stringify(source)}: in ":nth-child(${text})": ${(err as Error).message}`);
      }
      return { kind: 'nth-child', a: nth.a, b: nth.b, of: { list: compileList(source, ofTokens, form), slot: -1 } };
    }
    case 'nth-of-type': {
      const text = typeof data === 'string' ? data : '';
      const nth = parseNth(text);
      if (nth === null) throw new Error(`Invalid selector ${JSON.stringify(source)}: ":nth-of-type(${text})" is not An+B`);
      return { kind: 'nth-of-type', a: nth.a, b: nth.b };
    }
    case 'not':
    case 'is':
    case 'where': {
      if (!Array.isArray(data)) throw new Error(`Invalid selector ${JSON.stringify(source)}: ":${name}" needs a selector list`);
      const list = compileList(source, data, form);
      return name === 'not' ? { kind: 'not', list } : { kind: 'is', list };
    }
    default:
      if (UNDECIDABLE_PSEUDOS.has(name)) {
        unsupported(source, `the pseudo-class ":${name}"`, 'depends on what comes after the start tag, which a stream has not seen yet');
      }
      unsupported(source, `the pseudo-class ":${name}"`, 'is not supported (it depends on state a rewriter does not have)');
  }
}
