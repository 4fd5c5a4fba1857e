/** `DocumentEnd`: the end of the document (Cloudflare's HTMLRewriter `DocumentEnd`). */
import { type ContentContext, type ContentOptions, prepareContent } from './content.js';

/** What a document `end` handler receives: it can append content at the very end. */
export class DocumentEndUnit {
  /** @internal */ _append: string[] | null = null;
  /** @internal */ _active = true;

  /** @internal Made by the rewriter; `_context` is where the document ended (inside a `<script>`…). */
  constructor(/** @internal */ private readonly _context: ContentContext) {}

  /** Append content at the end of the document (escaped unless `{ html: true }`). */
  append(content: string, options?: ContentOptions): this {
    if (!this._active) throw new Error('DocumentEnd.append: the document end can no longer be changed: its handlers have finished');
    (this._append ??= []).push(prepareContent(content, options, this._context, 'DocumentEnd.append'));
    return this;
  }
}
