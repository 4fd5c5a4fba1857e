/** `Comment`: a comment token (Cloudflare's HTMLRewriter `Comment`). */
import type { CommentToken } from '@sluice/tokenizer';
import type { ContentContext } from './content.js';
import { Mutations } from './mutations.js';

/** A comment. `text` is its data; setting it rewrites the comment as `<!--text-->`. */
export class CommentUnit extends Mutations {
  /** @internal */ _text: string | null = null;
  /** @internal */ _active = true;

  /** @internal Made by the rewriter. */
  constructor(/** @internal */ readonly _token: CommentToken) {
    super();
  }

  protected contextFor(): ContentContext {
    return 'data';
  }
  protected get unitName(): string {
    return 'Comment';
  }
  protected checkActive(method: string): void {
    if (!this._active) throw new Error(`Comment.${method}: the comment can no longer be changed: its handlers have finished`);
  }

  /** The comment's data. */
  get text(): string {
    return this._text ?? this._token.data;
  }
  /**
   * Set the comment's data. Throws for text that would end the comment early or make it parse
   * differently (`-->`, `--!>`, a leading `>` or `->`, a trailing `<!-`).
   */
  set text(text: string) {
    this.checkActive('text');
    const t = String(text);
    const bad = t.includes('-->')
      ? '"-->"'
      : t.includes('--!>')
        ? '"--!>"'
        : t.startsWith('>') || t.startsWith('->')
          ? 'a leading ">" or "->"'
          : t.endsWith('<!-')
            ? 'a trailing "<!-"'
            : null;
    if (bad !== null) throw new Error(`Comment.text: comment text must not contain ${bad}: it would end or change the comment`);
    this._text = t;
  }

  /** @internal The comment to write. */
  _outputText(): string {
    return this._text === null ? this._token.raw : `<!--${this._text}-->`;
  }
}
