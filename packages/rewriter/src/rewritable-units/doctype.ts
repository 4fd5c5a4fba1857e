/** `Doctype`: the document type declaration (Cloudflare's HTMLRewriter `Doctype`). */
import type { DoctypeToken } from '@sluice/tokenizer';

/** A DOCTYPE. Its fields are read-only; it can be removed. */
export class DoctypeUnit {
  /** @internal */ _removed = false;
  /** @internal */ _active = true;

  /** @internal Made by the rewriter. */
  constructor(/** @internal */ readonly _token: DoctypeToken) {}

  /** The doctype's name, lowercased (`html`), or null when missing. */
  get name(): string | null {
    return this._token.name;
  }
  /** The public identifier, or null. */
  get publicId(): string | null {
    return this._token.publicId;
  }
  /** The system identifier, or null. */
  get systemId(): string | null {
    return this._token.systemId;
  }
  /** Remove the doctype. */
  remove(): this {
    if (!this._active) throw new Error('Doctype.remove: the doctype can no longer be changed: its handlers have finished');
    this._removed = true;
    return this;
  }
  /** Whether it was removed. */
  get removed(): boolean {
    return this._removed;
  }
}
