/**
 * `@sluice/tokenizer/internal`: NOT public API. The token classes' members that the other sluice stages
 * read and users do not see — the published declarations are built with `stripInternal`, so
 * `@internal` members are absent from `@sluice/tokenizer`'s types. Importing this module (for types:
 * `import type {} from '@sluice/tokenizer/internal'`) puts them back through declaration merging, for
 * sluice's own packages only. It may change in any release; see docs/architecture.md, "Public and
 * internal".
 *
 * Each member is declared here with the same type as in `token-classes.ts`; the tokenizer's own build
 * type-checks the two against each other (a merged declaration of another type is an error), so this
 * file cannot drift from the classes.
 */
import type {} from './token-classes.js';

declare module './token-classes.js' {
  interface Text {
    /** Offset just past the token in the whole input (`start` plus the length of `raw`). */
    readonly end: number;
    /** The string the token's text lies in, from `offset` (the token is sliced from it only when `raw` is read). */
    readonly source: string;
    /** Where the token's text starts in `source`. */
    readonly offset: number;
  }
  interface StartTag {
    /** Offset just past the token in the whole input (`start` plus the length of `raw`). */
    readonly end: number;
    /** The string the tag's text lies in, from `offset`. */
    readonly source: string;
    /** Where the tag's text starts in `source`. */
    readonly offset: number;
  }
  interface EndTag {
    /** Offset just past the token in the whole input (`start` plus the length of `raw`). */
    readonly end: number;
    /** The string the tag's text lies in, from `offset`. */
    readonly source: string;
    /** Where the tag's text starts in `source`. */
    readonly offset: number;
  }
}

export {};
