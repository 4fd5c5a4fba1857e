/**
 * The consumed but not yet emitted input that came in earlier chunks: the start of a token that is
 * still open (a long comment, a tag, `&am`, `<`).
 *
 * The scanner never reads these pieces again (it remembers its state), so they are only stored: small
 * pieces are gathered and joined into a block every {@link GATHER} pieces, and the blocks are joined
 * once, when the token ends. Each character is copied at most twice, so a 1 MB comment fed one
 * character at a time costs linear time. (Concatenating with `+=` instead keeps a rope node per piece
 * alive until the token ends: tens of bytes per character of a long token.)
 */
export class HeldText {
  private blocks: string[] = [];
  private pieces: string[] = [];
  /** Total length of the held text. */
  length = 0;

  push(piece: string): void {
    if (piece.length === 0) return;
    this.length += piece.length;
    const pieces = this.pieces;
    pieces.push(piece);
    if (pieces.length === GATHER) {
      this.blocks.push(pieces.join(''));
      pieces.length = 0;
    }
  }

  /** The held text as one string; the holder is left empty. */
  take(): string {
    const blocks = this.blocks;
    const pieces = this.pieces;
    let s: string;
    if (blocks.length === 0) s = pieces.length === 1 ? pieces[0] : pieces.join('');
    else {
      if (pieces.length > 0) blocks.push(pieces.join(''));
      s = blocks.length === 1 ? blocks[0] : blocks.join('');
    }
    this.blocks = [];
    this.pieces = [];
    this.length = 0;
    return s;
  }

  /** The held text as one string, left in place (for snapshots). */
  peek(): string {
    const s = this.take();
    this.push(s);
    return s;
  }
}

/** How many pieces are gathered before they are joined into a block. */
const GATHER = 512;
