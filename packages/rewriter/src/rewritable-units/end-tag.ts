/** `EndTag`: an element's end — its end tag, or the place the tree builder closed it implicitly. */
import type { EndTagToken } from '@sluice/tokenizer';
import type { ContentContext } from './content.js';
import { Mutations } from './mutations.js';
import { checkTagName } from './names.js';
import { asciiLowercase } from '@sluice/selectors';

/** A handler registered with `Element.onEndTag`. May return a promise: the stream waits for it. */
export type EndTagHandler = (endTag: EndTagUnit) => void | Promise<void>;

/**
 * What an end tag handler receives. For an implicit end (no end tag in the source) `before`/`after`
 * insert at the closing point, while renaming and `remove()` have nothing to act on and change nothing —
 * unless the element was renamed (`Element.tagName`): then an end tag is written there, which they act on.
 */
export class EndTagUnit extends Mutations {
  /** @internal */ _name: string;
  /** @internal */ _nameChanged = false;
  /** @internal */ _active = true;

  /** @internal Made by the rewriter. */
  constructor(
    /** @internal The end tag token; null for an implicit end. */ readonly _token: EndTagToken | null,
    name: string,
    /** @internal */ private readonly _innerContext: ContentContext,
  ) {
    super();
    this._name = name;
  }

  /** Content before the end tag is inside the element, so it is escaped for the element's content. */
  protected contextFor(method: 'before' | 'after' | 'replace'): ContentContext {
    return method === 'before' ? this._innerContext : 'data';
  }
  protected get unitName(): string {
    return 'EndTag';
  }
  protected checkActive(method: string): void {
    if (!this._active) throw new Error(`EndTag.${method}: the end tag </${this._name}> can no longer be changed: its handlers have finished`);
  }

  /** The end tag's name (ASCII-lowercased). Settable. */
  get name(): string {
    return this._name;
  }
  set name(name: string) {
    this.checkActive('name');
    this._name = asciiLowercase(checkTagName(name, 'EndTag.name'));
    this._nameChanged = true;
  }

  /** Whether the end tag is in the source (false: the element was closed implicitly). */
  get explicit(): boolean {
    return this._token !== null;
  }
}
