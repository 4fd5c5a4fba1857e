/** What every view reads: the input, its settings, and the parses made of it (each made once, when first asked). */
import { toTestFormat, type Node, type Token } from 'sluice';
import { oneShot, stepThrough, type ByteInfo, type Settings, type SteppedParse } from './pipeline.js';
import type { SourceView } from './source-view.js';

export class Model {
  private fullRun: SteppedParse | null = null;
  private oneShotResult: Node | null = null;
  private oneShotDump: string | null = null;

  constructor(
    /** The text the tokenizer reads (for bytes: decoded). */
    readonly input: string,
    readonly bytes: ByteInfo | null,
    readonly settings: Settings,
    readonly source: SourceView,
  ) {}

  /** The input's length in the units split points count: characters, or bytes for a byte input. */
  get length(): number {
    return this.bytes === null ? this.input.length : this.bytes.bytes.length;
  }

  /** The whole input parsed in one chunk, every token, event and error kept. */
  get full(): SteppedParse {
    return (this.fullRun ??= stepThrough(this.input, this.bytes, [], this.settings));
  }

  /** sluice's public API on the input: `parse` (string or bytes) or `parseFragment`. */
  get result(): Node {
    return (this.oneShotResult ??= oneShot(this.input, this.bytes, this.settings));
  }

  /** The html5lib tree dump of `result`. */
  get resultDump(): string {
    return (this.oneShotDump ??= toTestFormat(this.result));
  }
}

/** A token's span in the input. */
export function spanOf(t: Token): { from: number; to: number } {
  return { from: t.start, to: t.start + t.raw.length };
}

/** A token in a line: its type and its decoded fields. */
export function describeToken(t: Token): string {
  switch (t.type) {
    case 'text':
      return `${t.kind} ${JSON.stringify(t.value)}`;
    case 'startTag':
    case 'endTag': {
      const attrs = t.attributes.map((a) => (a.value === '' ? ` ${a.name}` : ` ${a.name}=${JSON.stringify(a.value)}`)).join('');
      return `${t.type === 'endTag' ? '/' : ''}${t.name}${attrs}${t.selfClosing ? ' /' : ''}`;
    }
    case 'comment':
      return JSON.stringify(t.data);
    case 'doctype':
      return `${t.name ?? '(no name)'}${t.publicId !== null ? ` PUBLIC ${JSON.stringify(t.publicId)}` : ''}${t.systemId !== null ? ` SYSTEM ${JSON.stringify(t.systemId)}` : ''}${t.forceQuirks ? ' (force-quirks)' : ''}`;
    default:
      return '';
  }
}
