/**
 * Selector parsing for the rewriter: `@sluice/selectors` parses and checks the text (css-what, as a
 * browser's parser would); this file checks that a stream can decide every part of the result when an
 * element's start tag arrives, and converts it into `ast.ts`'s streaming form.
 *
 * Supported: `*`, type, `.class`, `#id`, `[a]`, `[a=v]`, `~=`, `|=`, `^=`, `$=`, `*=` with `i`/`s`,
 * the descendant, `>`, `+` and `~` combinators, `:nth-child(An+B [of S])`, `:first-child`,
 * `:nth-of-type()`, `:first-of-type`, `:not()`, `:is()`, `:where()`, `:root`, and the `*|` / `|`
 * namespace forms. Everything else is rejected with an error naming the part.
 */
import {
  type ComplexSelector as SharedComplex,
  type CompoundSelector as SharedCompound,
  InvalidSelectorError,
  type PseudoClass,
  type SelectorList as SharedList,
  parseSelectorList,
} from '@sluice/selectors';
import { toByteForm } from '@sluice/tokenizer';
import type { ComplexSelector, CompoundSelector, PseudoTest, SelectorList, SiblingPrefix } from './ast.js';

/** Thrown (as a plain Error) for a selector the rewriter cannot use; the message names the part. */
function unsupported(selector: string, what: string, why: string): never {
  throw new Error(`Unsupported selector ${JSON.stringify(selector)}: ${what} ${why}`);
}

/** Pseudo-classes that depend on what comes after the start tag (later siblings, the element's content). */
const UNDECIDABLE = new Set(['only-child', 'only-of-type', 'empty', 'has', 'checked']);

const byteFormOption = { form: toByteForm };

/**
 * Parse and check `selector`; throws an Error naming the unsupported or invalid part. With `byteForm`,
 * its names and values are in byte form, to match elements parsed from bytes (`TokenizerOptions.byteInput`).
 */
export function parseSelector(selector: string, byteForm = false): SelectorList {
  if (typeof selector !== 'string') {
    throw new TypeError(`HTMLRewriter.on: the selector must be a string, got ${typeof selector}`);
  }
  let shared: SharedList;
  try {
    shared = parseSelectorList(selector, byteForm ? byteFormOption : undefined);
  } catch (err) {
    if (err instanceof InvalidSelectorError) throw new Error(`Invalid selector ${JSON.stringify(selector)}: ${err.detail}`);
    throw err;
  }
  // Converted anew each time: the streaming form gets per-rewriter bits and slots (see registry.ts).
  return convertList(selector, shared);
}

function convertList(source: string, list: SharedList): SelectorList {
  return list.map((c) => convertComplex(source, c));
}

function convertComplex(source: string, shared: SharedComplex): ComplexSelector {
  const compounds = shared.compounds.map((c) => convertCompound(source, c));
  const combinators = shared.combinators;
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

function convertCompound(source: string, c: SharedCompound): CompoundSelector {
  return { tag: c.tag, tagLower: c.tagLower, namespace: c.namespace, attributes: c.attributes, pseudos: c.pseudos.map((p) => convertPseudo(source, p)) };
}

function convertPseudo(source: string, p: PseudoClass): PseudoTest {
  switch (p.kind) {
    case 'nth-child':
      if (p.last) break;
      return { kind: 'nth-child', a: p.a, b: p.b, of: p.of === null ? null : { list: convertList(source, p.of), slot: -1 } };
    case 'nth-of-type':
      if (p.last) break;
      return { kind: 'nth-of-type', a: p.a, b: p.b };
    case 'root':
      return { kind: 'root' };
    case 'not':
      return { kind: 'not', list: convertList(source, p.list) };
    case 'is':
      return { kind: 'is', list: convertList(source, p.list) };
    case 'never':
      if (p.pseudoElement) unsupported(source, `the pseudo-element "${p.name}"`, 'has no start tag in the document');
      break;
    default:
      if (UNDECIDABLE.has(p.kind)) break;
  }
  if (p.kind === 'nth-child' || p.kind === 'nth-of-type' || UNDECIDABLE.has(p.kind)) {
    unsupported(source, `the pseudo-class "${p.name}"`, 'depends on what comes after the start tag, which a stream has not seen yet');
  }
  unsupported(source, `the pseudo-class "${p.name}"`, 'is not supported (it depends on state a rewriter does not have)');
}
