/** Validation of names handlers give to tags and attributes. */

// A tag name must start with an ASCII letter and contain no whitespace, `/`, `>` or NUL (HTML §13.2.5.8).
const VALID_TAG_NAME = /^[A-Za-z][^\t\n\f\r \0/>]*$/;
// An attribute name must not be empty nor contain whitespace, NUL, `"`, `'`, `<`, `/`, `=` or `>`.
const INVALID_ATTRIBUTE_NAME = /^$|[\t\n\f\r \0"'</=>]/;

/** Throw an Error naming `where` unless `name` can be written as a tag name. */
export function checkTagName(name: unknown, where: string): string {
  if (typeof name !== 'string' || !VALID_TAG_NAME.test(name)) {
    throw new Error(`${where}: ${JSON.stringify(name)} is not a valid tag name (an ASCII letter, then no whitespace, "/", ">" or NUL)`);
  }
  return name;
}

/** Throw an Error naming `where` unless `name` can be written as an attribute name. */
export function checkAttributeName(name: unknown, where: string): string {
  if (typeof name !== 'string' || INVALID_ATTRIBUTE_NAME.test(name)) {
    throw new Error(`${where}: ${JSON.stringify(name)} is not a valid attribute name (not empty; no whitespace, quotes, "<", "/", "=", ">" or NUL)`);
  }
  return name;
}
