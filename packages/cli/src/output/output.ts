/**
 * Standard output with manners: text is gathered into pieces of about 64 KiB and written with
 * `write()`; when `write()` returns false the command waits for `'drain'` (backpressure), and when the
 * reader has gone (EPIPE: `sluice … | head`) the command stops quietly.
 */
import type { Writable } from 'node:stream';

/** The reader of standard output closed it: the command stops, exit code 0, nothing printed. */
export class OutputClosed extends Error {
  override name = 'OutputClosed';
  constructor() {
    super('standard output was closed by its reader');
  }
}

const PIECE = 64 * 1024;

export class Output {
  private parts: string[] = [];
  private size = 0;
  private closedError: Error | null = null;
  private waiting: Promise<void> | null = null;

  constructor(private readonly stream: Writable) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // EPIPE (and its cousins on a closed socket) mean the reader is gone; anything else is kept and
      // reported by the command as any output failure.
      this.closedError = error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || error.code === 'ECONNRESET' ? new OutputClosed() : error;
    });
  }

  /** Whether the reader has gone (or writing failed). */
  get closed(): boolean {
    return this.closedError !== null;
  }

  /** Queues `text`; synchronous, for the parser's callbacks. {@link ready} writes it out. */
  write(text: string): void {
    if (text.length === 0) return;
    this.parts.push(text);
    this.size += text.length;
  }

  /** Queues `text` and a newline. */
  line(text: string): void {
    this.parts.push(text, '\n');
    this.size += text.length + 1;
  }

  /** Whether enough is queued that the command should call {@link ready} now. */
  get full(): boolean {
    return this.size >= PIECE;
  }

  /**
   * Writes what is queued once it reaches a piece (or always, with `force`), and resolves when the
   * stream can take more. Rejects with {@link OutputClosed} once the reader has gone.
   */
  async ready(force = false): Promise<void> {
    if (this.closedError !== null) throw this.closedError;
    if (this.size === 0 || (!force && this.size < PIECE)) return;
    const data = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.size = 0;
    let ok: boolean;
    try {
      ok = this.stream.write(data);
    } catch (error) {
      this.closedError ??= (error as NodeJS.ErrnoException).code === 'EPIPE' ? new OutputClosed() : (error as Error);
      throw this.closedError;
    }
    if (!ok) await this.drain();
    if (this.closedError !== null) throw this.closedError;
  }

  /** Writes raw bytes (the rewriter's output) with the same backpressure. */
  async bytes(chunk: Uint8Array): Promise<void> {
    await this.ready(true);
    if (chunk.length === 0) return;
    let ok: boolean;
    try {
      ok = this.stream.write(chunk);
    } catch (error) {
      this.closedError ??= (error as NodeJS.ErrnoException).code === 'EPIPE' ? new OutputClosed() : (error as Error);
      throw this.closedError;
    }
    if (!ok) await this.drain();
    if (this.closedError !== null) throw this.closedError;
  }

  /** Everything queued, written; resolves once the stream has taken it. */
  async flush(): Promise<void> {
    await this.ready(true);
  }

  private drain(): Promise<void> {
    this.waiting ??= new Promise<void>((resolve) => {
      const done = (): void => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        this.waiting = null;
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
      this.stream.on('close', done);
    });
    return this.waiting;
  }
}
