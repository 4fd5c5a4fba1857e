/**
 * Character references (HTML §13.2.5.72–80, table §13.5): the named reference trie the tokenizer
 * steps while scanning, and the decoder it runs lazily over a token's text or attribute value.
 */

export { NAMED_ROOT, NAMED_REFERENCE_COUNT, stepNamed, namedValue } from './named-trie.js';
export { decodeCharacterReferences, type CharacterReferenceError } from './decode.js';
