/**
 * What every rewritable unit can have done to it: content before and after it, replacement, removal.
 * `after` inserts right after the unit, so of two `after` calls the later one comes first (as in the DOM
 * and in Cloudflare's HTMLRewriter).
 */
import { type ContentContext, type ContentOptions, prepareContent } from './content.js';

/** The mutations shared by elements, text chunks, comments, doctypes and end tags. */
export abstract class Mutations {
  // Fields are declared and assigned in the constructor (no class-field initializer pass: a unit is
  // made for every element a handler matches, measured 41 → 23 ns for an element's).
  /** @internal */ declare _before: string[] | null;
  /** @internal */ declare _after: string[] | null;
  /** @internal Content replacing the unit (null: not replaced). */ declare _replacement: string | null;
  /** @internal */ declare _removed: boolean;

  constructor() {
    this._before = null;
    this._after = null;
    this._replacement = null;
    this._removed = false;
  }

  /** The context content inserted by `method` lands in (what decides its escaping). */
  protected abstract contextFor(method: 'before' | 'after' | 'replace'): ContentContext;
  /** For error messages, e.g. `Element.before`. */
  protected abstract get unitName(): string;

  /** @internal Check that the unit may still be changed (its handler has not finished). */
  protected abstract checkActive(method: string): void;

  /** Insert content just before this unit. */
  before(content: string, options?: ContentOptions): this {
    this.checkActive('before');
    (this._before ??= []).push(prepareContent(content, options, this.contextFor('before'), `${this.unitName}.before`));
    return this;
  }

  /** Insert content just after this unit (a later call's content comes first). */
  after(content: string, options?: ContentOptions): this {
    this.checkActive('after');
    (this._after ??= []).unshift(prepareContent(content, options, this.contextFor('after'), `${this.unitName}.after`));
    return this;
  }

  /** Replace this unit with content (the last call wins). */
  replace(content: string, options?: ContentOptions): this {
    this.checkActive('replace');
    this._replacement = prepareContent(content, options, this.contextFor('replace'), `${this.unitName}.replace`);
    this._removed = true;
    return this;
  }

  /** Remove this unit. */
  remove(): this {
    this.checkActive('remove');
    this._removed = true;
    return this;
  }

  /** Whether this unit was removed or replaced. */
  get removed(): boolean {
    return this._removed;
  }
}

/** Join a content list, or '' when there is none. */
export function joined(list: string[] | null): string {
  return list === null ? '' : list.length === 1 ? list[0]! : list.join('');
}
