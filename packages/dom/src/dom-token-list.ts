/**
 * `DOMTokenList` (DOM Standard §7.1), the type of `element.classList`: the ordered set of tokens of an
 * attribute (`class`), live — it always reflects the attribute's current value.
 *
 * The token set is parsed from the attribute value when first needed after the value changed (the DOM's
 * "attribute change steps" run eagerly; parsing lazily gives the same answers without a hook in every
 * attribute write).
 */
import { getAttributeValue, setAttributeValue } from './attribute-value.js';
import type { Element } from './element.js';
import { domError } from './node.js';

/** Infra "ASCII whitespace": TAB, LF, FF, CR, SPACE. */
const ASCII_WHITESPACE = /[\t\n\f\r ]/;
const ASCII_WHITESPACE_RUN = /[\t\n\f\r ]+/;

/** @internal DOM §1.3 "ordered set parser": split on ASCII whitespace, drop duplicates, keep the first of each. */
export function parseOrderedSet(input: string): string[] {
  const tokens: string[] = [];
  for (const token of input.split(ASCII_WHITESPACE_RUN)) {
    if (token !== '' && !tokens.includes(token)) tokens.push(token);
  }
  return tokens;
}

/** @internal DOM §1.3 "ordered set serializer": the tokens joined with single spaces. */
export function serializeOrderedSet(tokens: readonly string[]): string {
  return tokens.join(' ');
}

/** The lists already made, so that `element.classList` is always the same object ([SameObject]). */
const LISTS = new WeakMap<Element, DOMTokenList>();

/** @internal `element.classList`: the element's DOMTokenList for `class`, made on first use. */
export function classListOf(element: Element): DOMTokenList {
  let list = LISTS.get(element);
  if (list === undefined) {
    list = DOMTokenList._create(element, 'class');
    LISTS.set(element, list);
  }
  return list;
}

/**
 * A set of space-separated tokens reflecting an attribute: `length`, `item(i)` and `list[i]`,
 * `contains`, `add`, `remove`, `toggle`, `replace`, `supports`, `value`, and iteration (`for … of`,
 * `keys`, `values`, `entries`, `forEach`). Made by `element.classList`, not constructed directly.
 */
export class DOMTokenList implements Iterable<string> {
  [index: number]: string | undefined;
  /** @internal */ declare readonly _element: Element;
  /** @internal The associated attribute's local name. */
  declare readonly _localName: string;
  /** @internal The attribute value `_tokens` was parsed from (null: no attribute). */
  declare _parsedFrom: string | null;
  /** @internal */ declare _tokens: string[];

  /** @internal Use `element.classList`. */
  constructor(element: Element, localName: string) {
    this._element = element;
    this._localName = localName;
    this._parsedFrom = null;
    this._tokens = [];
  }

  /**
   * @internal A list behind a Proxy that answers `list[0]`, `list[1]` … (WebIDL "supported property
   * indices"); every other property is the list's own.
   */
  static _create(element: Element, localName: string): DOMTokenList {
    const target = new DOMTokenList(element, localName);
    return new Proxy(target, {
      get(t, key) {
        if (typeof key === 'string' && isArrayIndex(key)) return t.item(Number(key)) ?? undefined;
        return Reflect.get(t, key, t);
      },
      set(t, key, value) {
        if (typeof key === 'string' && isArrayIndex(key)) return false; // read-only indices, as in a browser (throws in strict code)
        return Reflect.set(t, key, value, t);
      },
      has(t, key) {
        if (typeof key === 'string' && isArrayIndex(key)) return Number(key) < t.length;
        return Reflect.has(t, key);
      },
      ownKeys(t) {
        // The indices, as a browser lists them; the list's internal fields (configurable, so they may be
        // left out) are not shown.
        const keys: (string | symbol)[] = [];
        for (let i = 0; i < t.length; i++) keys.push(String(i));
        return keys.concat(Reflect.ownKeys(t).filter((k) => typeof k !== 'string' || !k.startsWith('_')));
      },
      getOwnPropertyDescriptor(t, key) {
        if (typeof key === 'string' && isArrayIndex(key)) {
          const value = t.item(Number(key));
          return value === null ? undefined : { value, writable: false, enumerable: true, configurable: true };
        }
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
    });
  }

  /** @internal The token set, re-parsed if the attribute changed since it was last read. */
  _set(): string[] {
    const value = getAttributeValue(this._element, this._localName);
    if (value !== this._parsedFrom) {
      this._tokens = value === null ? [] : parseOrderedSet(value);
      this._parsedFrom = value;
    }
    return this._tokens;
  }

  /** @internal DOM §7.1 "update steps": write the set back, unless there is no attribute and nothing to write. */
  _update(tokens: string[]): void {
    if (tokens.length === 0 && getAttributeValue(this._element, this._localName) === null) return;
    const value = serializeOrderedSet(tokens);
    setAttributeValue(this._element, this._localName, value);
    this._tokens = tokens;
    this._parsedFrom = value;
  }

  /** The number of tokens. */
  get length(): number {
    return this._set().length;
  }
  /** The token at `index`, or null. */
  item(index: number): string | null {
    const tokens = this._set();
    const i = Math.trunc(Number(index));
    return i >= 0 && i < tokens.length ? tokens[i] : null;
  }
  /** Whether `token` is in the set. */
  contains(token: string): boolean {
    return this._set().includes(String(token));
  }
  /**
   * Add each token not already there, then write the attribute (which normalizes it). Throws a
   * SyntaxError for an empty token, an InvalidCharacterError for one with whitespace — before changing
   * anything.
   */
  add(...tokens: string[]): void {
    const checked = validateTokens(tokens, 'add');
    const set = this._set().slice();
    for (const t of checked) if (!set.includes(t)) set.push(t);
    this._update(set);
  }
  /** Remove each token that is there, then write the attribute. Throws like {@link add}. */
  remove(...tokens: string[]): void {
    const checked = validateTokens(tokens, 'remove');
    const set = this._set().filter((t) => !checked.includes(t));
    this._update(set);
  }
  /**
   * Remove `token` if present, add it if absent; with `force`, only add (true) or only remove (false).
   * Returns whether the token is now present. Throws like {@link add}.
   */
  toggle(token: string, force?: boolean): boolean {
    const [t] = validateTokens([token], 'toggle');
    const set = this._set();
    if (set.includes(t)) {
      if (force === undefined || !force) {
        this._update(set.filter((x) => x !== t));
        return false;
      }
      return true;
    }
    if (force === undefined || force) {
      this._update([...set, t]);
      return true;
    }
    return false;
  }
  /**
   * Replace `token` with `newToken` (Infra "replace" in an ordered set: the first of either becomes
   * `newToken`, other copies go). Returns false, changing nothing, when `token` is absent. Throws like
   * {@link add} for either argument.
   */
  replace(token: string, newToken: string): boolean {
    const [t, n] = validateTokens([token, newToken], 'replace');
    const set = this._set();
    if (!set.includes(t)) return false;
    const out: string[] = [];
    let placed = false;
    for (const x of set) {
      if (x === t || x === n) {
        if (!placed) out.push(n);
        placed = true;
      } else {
        out.push(x);
      }
    }
    this._update(out);
    return true;
  }
  /**
   * DOM §7.1 "validation steps": whether `token` is one of the attribute's supported tokens. `class`
   * defines none, so for `classList` this throws a TypeError, as in a browser.
   */
  supports(token: string): boolean {
    throw new TypeError(
      `DOMTokenList.supports: the ${this._localName} attribute defines no supported tokens (asked about ${JSON.stringify(String(token))})`,
    );
  }
  /** The attribute's value ('' when absent); setting it sets the attribute. */
  get value(): string {
    return getAttributeValue(this._element, this._localName) ?? '';
  }
  set value(value: string) {
    setAttributeValue(this._element, this._localName, String(value));
  }
  /** Same as {@link value}. */
  toString(): string {
    return this.value;
  }
  /** The tokens, in order. */
  [Symbol.iterator](): Iterator<string> {
    return this._set().slice()[Symbol.iterator]();
  }
  /** The tokens, in order. */
  values(): IterableIterator<string> {
    return this._set().slice().values();
  }
  /** The indices 0 … length − 1. */
  keys(): IterableIterator<number> {
    return this._set().slice().keys();
  }
  /** `[index, token]` pairs. */
  entries(): IterableIterator<[number, string]> {
    return this._set().slice().entries();
  }
  /** Call `callback(token, index, list)` for each token. */
  forEach(callback: (token: string, index: number, list: DOMTokenList) => void, thisArg?: unknown): void {
    const tokens = this._set().slice();
    for (let i = 0; i < tokens.length; i++) callback.call(thisArg, tokens[i], i, this);
  }
  get [Symbol.toStringTag](): string {
    return 'DOMTokenList';
  }
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** The checks `add`, `remove`, `toggle` and `replace` make on every token first (DOM §7.1). */
function validateTokens(tokens: readonly unknown[], method: string): string[] {
  const out: string[] = [];
  for (const raw of tokens) {
    const token = String(raw);
    if (token === '') domError('SyntaxError', `DOMTokenList.${method}: the token is empty`);
    if (ASCII_WHITESPACE.test(token)) {
      domError('InvalidCharacterError', `DOMTokenList.${method}: the token ${JSON.stringify(token)} contains ASCII whitespace`);
    }
    out.push(token);
  }
  return out;
}
