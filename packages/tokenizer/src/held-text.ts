/**
 * The consumed but not yet emitted input that came in earlier chunks: the start of a token that is
 * still open (a long comment, a tag, `&am`, `<`).
 *
 * Pieces are kept as a stack whose lengths at least halve from bottom to top, merging the top two when
 * they are not: each character is copied O(log n) times however small the chunks, and the scanner never
 * reads these pieces again (it remembers its state), so a 1 MB comment fed one character at a time costs
 * linear time. (Concatenating with `+=` instead keeps a
 * rope node per piece alive until the token ends: tens of bytes per character of a long token.)
 */
export class HeldText {
  private parts: string[] = [];
  /** Total length of the held text. */
  length = 0;

  push(piece: string): void {
    if (piece.length === 0) return;
    const parts = this.parts;
    parts.push(piece);
    this.length += piece.length;
    let n = parts.length;
    while (n >= 2 && parts[n - 1].length * 2 >= parts[n - 2].length) {
      // join() builds a flat string; `+=` would only build a rope node per push.
      const merged = parts.slice(n - 2).join('');
      parts.length = n - 2;
      parts.push(merged);
      n--;
    }
  }

  /** The held text as one string; the holder is left empty. */
  take(): string {
    const parts = this.parts;
    const s = parts.length === 1 ? parts[0] : parts.join('');
    parts.length = 0;
    this.length = 0;
    return s;
  }

  /** The held text as one string, left in place (for snapshots). */
  peek(): string {
    const s = this.parts.join('');
    if (this.parts.length > 1) this.parts = [s];
    return s;
  }
}
