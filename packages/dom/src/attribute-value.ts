/**
 * DOM §4.9 "get an attribute value" and "set an attribute value" with no namespace: what reflecting
 * APIs (`classList`, `dataset`) use. Unlike `setAttribute`, they find the attribute by its local name
 * in no namespace, and do not lowercase: the callers hand over names that are already right.
 */
import type { Element } from './element.js';

/** @internal The value of the no-namespace attribute `localName` of `element`, or null when it has none. */
export function getAttributeValue(element: Element, localName: string): string | null {
  const i = element._indexOfNS(null, localName);
  return i < 0 ? null : element._attrs[i].value;
}

/** @internal Set (change or append) the no-namespace attribute `localName` of `element` to `value`. */
export function setAttributeValue(element: Element, localName: string, value: string): void {
  const i = element._indexOfNS(null, localName);
  if (i >= 0) element._changeValue(i, value);
  else element._append({ name: localName, value, namespace: null, prefix: null, localName });
}
