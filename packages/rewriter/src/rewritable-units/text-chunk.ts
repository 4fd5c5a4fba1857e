/** `TextChunk`: a piece of a text node, as it arrived (Cloudflare's HTMLRewriter `Text`). */
import type { ContentContext } from './content.js';
import { Mutations } from './mutations.js';

/**
 * A text chunk. `text` is the source text, character references not decoded (as in Cloudflare's
 * HTMLRewriter). A text node arrives as one or more chunks; after its last one comes an empty chunk
 * with `lastInTextNode` true.
 */
export class TextChunkUnit extends Mutations {
  /** @internal */ _active = true;

  /** @internal Made by the rewriter. */
  constructor(
    /** The chunk's source text (character references not decoded). Empty for the last chunk. */
    readonly text: string,
    /** Whether this is the (empty) chunk that ends the text node. */
    readonly lastInTextNode: boolean,
    /** @internal The context its text is in (how content inserted next to it is escaped). */
    readonly _context: ContentContext,
    /** @internal The source text to copy when the chunk is kept (`text`, in the input's form). */
    readonly _source: string = text,
  ) {
    super();
  }

  protected contextFor(): ContentContext {
    return this._context;
  }
  protected get unitName(): string {
    return 'TextChunk';
  }
  protected checkActive(method: string): void {
    if (!this._active) throw new Error(`TextChunk.${method}: the text chunk can no longer be changed: its handlers have finished`);
  }
}
