/**
 * `@sluice/selectors`: Selectors Level 4 as browsers ship them — parsed by css-what, checked as a
 * browser's parser checks them, compiled once into an immutable form — and the primitives every matcher
 * needs (attribute operators and their case rules, `An+B`). `@sluice/dom` matches the compiled form over
 * its tree; `@sluice/rewriter` converts it into its streaming form (see docs/selectors.md).
 */
export { parseSelectorList, type ParseOptions } from './parse.js';
export { InvalidSelectorError } from './errors.js';
export type * from './ast.js';
export {
  HTML_NS,
  CASE_INSENSITIVE_VALUES,
  attributeMatches,
  htmlAttributeMatches,
  valueMatches,
  includesWord,
  insensitiveFor,
  typeMatches,
  type AttributeRecord,
} from './attribute.js';
export { parseNth, nthMatches, type Nth } from './nth.js';
export { asciiLowercase, isAsciiWhitespace } from './ascii.js';
export { startsIdent } from './identifiers.js';
