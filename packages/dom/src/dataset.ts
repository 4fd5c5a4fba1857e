/**
 * `element.dataset`: a `DOMStringMap` over the element's `data-*` attributes (HTML §3.2.6.6 "Embedding
 * custom non-visible data with the data-* attributes"; §3.2.2 / DOMStringMap). A Proxy: reading,
 * writing, deleting, `in` and enumerating properties go to the attributes, converting names between
 * camelCase (`fooBar`) and `data-` attribute names (`data-foo-bar`).
 */
import { setAttributeValue } from './attribute-value.js';
import type { Element } from './element.js';
import { domError } from './node.js';

/** The interface of `element.dataset` (its properties are the element's data-* attributes). */
export class DOMStringMap {
  [name: string]: string | undefined;
}

const MAPS = new WeakMap<Element, DOMStringMap>();

/** @internal `element.dataset`, made on first use and the same object afterwards ([SameObject]). */
export function datasetOf(element: Element): DOMStringMap {
  let map = MAPS.get(element);
  if (map === undefined) {
    map = makeDataset(element);
    MAPS.set(element, map);
  }
  return map;
}

/**
 * HTML §3.2.2 DOMStringMap "name-value pairs": for each attribute whose name starts with `data-` and has
 * no ASCII upper alpha after it, the rest of the name with each `-` + lowercase letter turned into the
 * uppercase letter; in attribute order. (The first pair wins when two attributes give the same name.)
 */
function namePairs(element: Element): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const a of element._attrs) {
    const name = a.name;
    if (!name.startsWith('data-') || /[A-Z]/.test(name.slice(5))) continue;
    const key = name.slice(5).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    if (!pairs.has(key)) pairs.set(key, a.value);
  }
  return pairs;
}

/** `fooBar` → `data-foo-bar`: a `-` before each ASCII upper alpha, lowercased, and the prefix. */
function attributeNameOf(name: string): string {
  return 'data-' + name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** HTML §3.2.6.6 setter steps: SyntaxError for `-` followed by a lowercase letter; the name must be valid. */
function setNamed(element: Element, name: string, value: unknown): void {
  if (/-[a-z]/.test(name)) {
    domError('SyntaxError', `dataset: ${JSON.stringify(name)} has a "-" followed by a lowercase letter, which no data-* attribute name maps to`);
  }
  const attribute = attributeNameOf(name);
  // DOM "valid attribute local name".
  if (/[\t\n\f\r \0/=>]/.test(attribute)) {
    domError('InvalidCharacterError', `dataset: ${JSON.stringify(attribute)} is not a valid attribute name`);
  }
  setAttributeValue(element, attribute, String(value));
}

function makeDataset(element: Element): DOMStringMap {
  return new Proxy(new DOMStringMap(), {
    get(target, key, receiver) {
      if (typeof key === 'string') {
        const value = namePairs(element).get(key);
        if (value !== undefined) return value;
      }
      return Reflect.get(target, key, receiver);
    },
    set(target, key, value) {
      if (typeof key !== 'string') return Reflect.set(target, key, value);
      setNamed(element, key, value);
      return true;
    },
    deleteProperty(target, key) {
      if (typeof key !== 'string') return Reflect.deleteProperty(target, key);
      // WebIDL: the deleter runs only for a supported property name; otherwise nothing to delete.
      if (!namePairs(element).has(key)) return true;
      element.removeAttribute(attributeNameOf(key));
      return true;
    },
    has(target, key) {
      if (typeof key === 'string' && namePairs(element).has(key)) return true;
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      return [...namePairs(element).keys(), ...Reflect.ownKeys(target)];
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string') {
        const value = namePairs(element).get(key);
        if (value !== undefined) return { value, writable: true, enumerable: true, configurable: true };
      }
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    defineProperty(target, key, descriptor) {
      if (typeof key !== 'string') return Reflect.defineProperty(target, key, descriptor);
      if (descriptor.get !== undefined || descriptor.set !== undefined) return false;
      setNamed(element, key, descriptor.value);
      return true;
    },
  });
}
