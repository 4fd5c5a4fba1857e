/**
 * The progress line: on stderr, only when stderr is a terminal and `--quiet` was not given — bytes read,
 * the percentage when the input's size is known, and the rate; redrawn at most ten times a second and
 * erased when the work is done, so nothing of it stays in the terminal or reaches a file or a pipe.
 */
import type { Writable } from 'node:stream';

/** Whether a progress line may be drawn: stderr is a terminal and the user did not ask for quiet. */
export function progressWanted(stderr: { isTTY?: boolean }, quiet: boolean): boolean {
  return stderr.isTTY === true && !quiet;
}

/** Bytes as people read them: `912 B`, `14.2 KB`, `3.51 MB`, `1.07 GB` (powers of 1000). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ${units[i]}`;
}

/**
 * One progress line: `sluice tokenize: 12.4 MB of 200 MB (6%), 41.3 MB/s`; without a known size
 * `sluice tokenize: 12.4 MB, 41.3 MB/s`.
 */
export function formatProgress(command: string, bytes: number, total: number | null, seconds: number): string {
  let s = `sluice ${command}: ${formatBytes(bytes)}`;
  if (total !== null && total > 0) s += ` of ${formatBytes(total)} (${Math.min(100, Math.floor((bytes / total) * 100))}%)`;
  if (seconds > 0) s += `, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s`;
  return s;
}

/** Draws the progress line while bytes are read; does nothing at all when not {@link progressWanted}. */
export class Progress {
  private bytes = 0;
  private readonly started = performance.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly stderr: Writable | null,
    private readonly command: string,
    private readonly total: number | null,
  ) {}

  /** `n` more bytes were read. Redraws when 100 ms have passed since the last drawing. */
  add(n: number): void {
    if (this.stderr === null) return;
    this.bytes += n;
    const now = performance.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.drawn = true;
    // \r back to the start, the line, then erase whatever a longer earlier line left (\x1b[K).
    this.stderr.write(`\r${formatProgress(this.command, this.bytes, this.total, (now - this.started) / 1000)}\x1b[K`);
  }

  /** The work is done (or failed): erase the line. */
  clear(): void {
    if (this.stderr === null || !this.drawn) return;
    this.drawn = false;
    this.stderr.write('\r\x1b[K');
  }
}
