/**
 * What the parser throws. Consumers turn it into their own error: the DOM into a `DOMException` named
 * `SyntaxError` (DOM §4.2.6 "scope-match a selectors string": "If s is failure, then throw a
 * SyntaxError"), the rewriter into its `Invalid selector …` Error.
 */

/**
 * A selector that is not valid CSS, or that no browser would accept in a query (an undeclared namespace
 * prefix, an unknown pseudo-class). `name` is `SyntaxError`, like the DOMException a browser throws.
 */
export class InvalidSelectorError extends Error {
  override readonly name = 'SyntaxError';
  /**
   * @param selector the whole selector text, as given
   * @param detail what is wrong with it, naming the part (e.g. `the pseudo-class ":foo" is unknown`)
   */
  constructor(
    readonly selector: string,
    readonly detail: string,
  ) {
    super(`${JSON.stringify(selector)} is not a valid selector: ${detail}`);
  }
}
