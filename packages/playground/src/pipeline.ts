/**
 * The parse the playground watches: sluice's tokenizer and tree builder wired together as sluice's
 * `Parser` wires them (HTML §13.2: the tokenizer's tokens go to the tree builder, which switches the
 * tokenizer's text mode from inside `emit`), but with the tokenizer in hand, so that after every chunk
 * its state can be read (`Tokenizer.debugState()`). Bytes go through the browser's `TextDecoder` in the
 * encoding sluice's own byte path sniffed (the same Encoding Standard decoders).
 */
import {
  Parser,
  RecordingSink,
  Tokenizer,
  TreeBuilder,
  fragmentTextMode,
  parse,
  parseFragment,
  resolveContext,
  toTestFormat,
  type Document,
  type Node,
  type Token,
  type TokenizerDebugState,
} from 'sluice';
import { TeeSink } from './tee-sink.js';

/** The options the page offers. */
export interface Settings {
  /** The fragment parsing algorithm's context (`'td'`, `'svg path'`), or null for a document. */
  context: string | null;
  /** The scripting flag (HTML §13.2.2). */
  scripting: boolean;
}

/** A parse error, from either stage, with its offset in the (decoded) input and its line and column (the stage's own). */
export interface PlaygroundError {
  stage: 'tokenizer' | 'tree builder';
  code: string;
  offset: number;
  line: number;
  col: number;
}

/** What sluice's byte path found for a byte input. */
export interface ByteInfo {
  bytes: Uint8Array;
  /** The encoding the page is decoded in (after a `<meta>` asked for another, that one). */
  encoding: string;
  /** Which step of HTML §13.2.3.2 decided, and the confidence. */
  how: string;
  /** The decoded text: what the tokenizer reads. */
  text: string;
}

/** Runs sluice's byte path on `bytes` (sniffing, HTML §13.2.3) and decodes them as it decided. */
export function sniffBytes(bytes: Uint8Array): ByteInfo {
  const parser = new Parser(new RecordingSink({ keepLines: false }));
  parser.write(bytes);
  parser.end();
  const sniffed = parser.sniffResult;
  const change = parser.encodingChange;
  const encoding = change?.action === 'reparse' ? change.to : (parser.encoding ?? 'windows-1252');
  let how = sniffed === null ? 'unknown' : `${describeSource(sniffed.source)}, confidence ${sniffed.confidence}`;
  if (change?.action === 'none') how += '; the <meta> the tree builder then met named it again: confidence certain';
  if (change?.action === 'reparse') how += `; then a <meta> asked for ${change.to}: parsed again in it (§13.2.3.4)`;
  // The BOM is the decoder's (HTML §13.2.3.1): TextDecoder drops it as sluice's decoder does.
  const text = new TextDecoder(encoding).decode(bytes);
  return { bytes, encoding, how, text };
}

function describeSource(source: unknown): string {
  switch (source) {
    case 'bom': return 'byte order mark';
    case 'prescan': return 'the <meta> prescan of the first 1024 bytes';
    case 'default': return 'the default (nothing named an encoding)';
    case 'transport': return 'the Content-Type charset';
    case 'override': return 'the user’s choice';
    default: return String(source);
  }
}

/** One step of the stepper: what was fed, and everything visible after it. */
export interface Step {
  /** `[from, to)` in the input (characters; for bytes, in the byte array). */
  from: number;
  to: number;
  /** The tokenizer after the step (null after end()). */
  state: TokenizerDebugState;
  /** Counts after the step, to show what this step added. */
  tokens: number;
  events: number;
  errors: number;
  /** Bytes in: the decoder holds the first bytes of a character the split cut. */
  decoderHolds: boolean;
  /** Text the tokenizer got in this step. */
  text: string;
}

/** The stepped parse: feed chunks one by one, read everything between them. */
export class SteppedParse {
  readonly tokens: Token[] = [];
  readonly errors: PlaygroundError[] = [];
  readonly sink = new TeeSink();
  readonly steps: Step[] = [];
  private readonly tokenizer: Tokenizer;
  private readonly builder: TreeBuilder<number>;
  private readonly decoder: TextDecoder | null;
  private readonly emit: (t: Token) => void;
  private fed = 0;
  private textLength = 0;
  ended = false;

  constructor(readonly settings: Settings, readonly bytes: ByteInfo | null) {
    const context = settings.context === null ? undefined : resolveContext(settings.context);
    if (context !== undefined && bytes !== null) throw new Error('a fragment is parsed from a string: the fragment parsing algorithm takes no bytes');
    const initial = context === undefined ? 'data' : fragmentTextMode(context, settings.scripting);
    let builder: TreeBuilder<number> | null = null;
    const tokenizer = new Tokenizer({
      autoTextMode: false,
      // As Parser: a document's leading BOM is not text; bytes were decoded without it; a fragment keeps it.
      discardByteOrderMark: context === undefined && bytes === null,
      cdataAllowed: () => builder !== null && builder.cdataAllowed(),
      ...(initial !== 'data' ? { initialState: initial } : {}),
      onParseError: (e) => this.errors.push({ stage: 'tokenizer', code: e.code, offset: e.offset, line: e.line, col: e.col }),
    });
    builder = new TreeBuilder(
      this.sink,
      { setTextMode: (mode) => tokenizer.setTextMode(mode), insert: (text) => tokenizer.insert(text) },
      {
        scripting: settings.scripting,
        ...(context !== undefined ? { fragmentContext: context } : {}),
        onParseError: (e) => this.errors.push({ stage: 'tree builder', code: e.code, offset: e.offset, line: e.line, col: e.col }),
      },
    );
    this.tokenizer = tokenizer;
    this.builder = builder;
    this.decoder = bytes === null ? null : new TextDecoder(bytes.encoding);
    this.emit = (t) => {
      builder.processToken(t);
      this.tokens.push(t);
    };
  }

  /** Feeds the input up to `to` (characters, or bytes for a byte input); `end` after the last. */
  feedTo(input: string, to: number): void {
    const from = this.fed;
    let text: string;
    if (this.bytes !== null) text = this.decoder!.decode(this.bytes.bytes.subarray(from, to), { stream: true });
    else text = input.slice(from, to);
    this.fed = to;
    this.textLength += text.length;
    this.tokenizer.write(text, this.emit);
    this.record(from, to, text);
  }

  /** End of input: flushes the tokenizer, runs the end-of-file rules. */
  end(): void {
    if (this.decoder !== null) {
      const rest = this.decoder.decode();
      if (rest !== '') this.tokenizer.write(rest, this.emit);
    }
    const state = this.tokenizer.debugState();
    this.tokenizer.end(this.emit);
    this.builder.processEnd();
    this.ended = true;
    this.steps.push({ from: this.fed, to: this.fed, state, tokens: this.tokens.length, events: this.sink.events.length, errors: this.errors.length, decoderHolds: false, text: '' });
  }

  /** The insertion mode (HTML §13.2.4.1) and the stack of open elements, bottom first. */
  get treeBuilderState(): { mode: string; open: string[] } {
    if (this.ended) return { mode: '(ended)', open: [] };
    return { mode: this.builder.insertionMode, open: this.builder.openElements.map((e) => e.localName) };
  }

  /** How much text the tokenizer has been given (for bytes: decoded characters). */
  get textFed(): number {
    return this.textLength;
  }

  private record(from: number, to: number, text: string): void {
    // Decoding the bytes so far without streaming ends a cut character with U+FFFD: one more character
    // than the streaming decoder gave exactly when it holds the cut character's first bytes.
    const decoderHolds = this.bytes !== null && new TextDecoder(this.bytes.encoding).decode(this.bytes.bytes.subarray(0, to)).length > this.textLength;
    this.steps.push({
      from,
      to,
      state: this.tokenizer.debugState(),
      tokens: this.tokens.length,
      events: this.sink.events.length,
      errors: this.errors.length,
      decoderHolds,
      text,
    });
  }
}

/** Parses `input` with the split points given, every step recorded. */
export function stepThrough(input: string, bytes: ByteInfo | null, splits: readonly number[], settings: Settings): SteppedParse {
  const run = new SteppedParse(settings, bytes);
  const length = bytes === null ? input.length : bytes.bytes.length;
  for (const s of splits) if (s > 0 && s < length) run.feedTo(input, s);
  run.feedTo(input, length);
  run.end();
  return run;
}

/** The one-shot parse with sluice's public API, for comparison: `parse(text or bytes)` or `parseFragment`. */
export function oneShot(input: string, bytes: ByteInfo | null, settings: Settings): Node {
  if (settings.context !== null) return parseFragment(input, settings.context, { scripting: settings.scripting });
  return parse(bytes !== null ? bytes.bytes : input, { scripting: settings.scripting });
}

/** The html5lib tree dump of a stepped parse's result (for a fragment: the children of its root `html`). */
export function dumpOf(run: SteppedParse): string {
  const doc: Document = run.sink.tree;
  if (run.settings.context === null) return toTestFormat(doc);
  const root = doc.documentElement;
  return root === null ? '' : root.childNodes.map((c) => toTestFormat(c)).join('\n');
}
