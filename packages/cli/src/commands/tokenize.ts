/**
 * `sluice tokenize`: the tokens of the input as JSON lines, streamed — or, with `--summary`, the counts
 * and the round-trip check the command printed before.
 */
import { HtmlDecoder, changeTheEncoding, type EncodingChange } from '@sluice/encoding';
import { Parser } from '@sluice/tree-builder';
import type { ParseError, Token } from '@sluice/tokenizer';
import { EventSink } from '../sinks/event-sink.js';
import { describeEncoding, metaEncoding, type Input } from '../input.js';
import { note, readChunks, type Context } from './context.js';

export interface TokenizeOptions {
  chunkSize: number;
  encoding: string | undefined;
  scripting: boolean;
  summary: boolean;
  errors: boolean;
}

/**
 * One token as a JSON object (documented in docs/cli.md): `type`, `start` (offset in the decoded text,
 * UTF-16 code units), `raw` (the exact source text), and the decoded fields of its type.
 */
export function tokenJson(t: Token): string {
  switch (t.type) {
    case 'text':
      return JSON.stringify({ type: 'text', start: t.start, raw: t.raw, kind: t.kind, value: t.value });
    case 'startTag':
      return JSON.stringify({ type: 'startTag', start: t.start, raw: t.raw, name: t.name, attributes: t.attributes.map((a) => ({ name: a.name, value: a.value })), selfClosing: t.selfClosing });
    case 'endTag':
      return JSON.stringify({ type: 'endTag', start: t.start, raw: t.raw, name: t.name });
    case 'comment':
      return JSON.stringify({ type: 'comment', start: t.start, raw: t.raw, data: t.data });
    case 'doctype':
      return JSON.stringify({ type: 'doctype', start: t.start, raw: t.raw, name: t.name, publicId: t.publicId, systemId: t.systemId, forceQuirks: t.forceQuirks });
    default:
      return JSON.stringify({ type: 'discarded', start: t.start, raw: t.raw });
  }
}

/** A parse error as a JSON line: `{"type":"error","code","offset","line","col"}`. */
export function errorJson(e: ParseError): string {
  return JSON.stringify({ type: 'error', code: e.code, offset: e.offset, line: e.line, col: e.col });
}

/**
 * Streams the input through the decoder (the standard's sniffing) and the parser — the tree builder
 * drives the tokenizer's text modes, as in a browser — and writes each token as it comes. Returns the
 * exit code: 0, or 1 when `--summary`'s round trip fails.
 */
export async function tokenizeCommand(ctx: Context, input: Input, o: TokenizeOptions): Promise<number> {
  const out = ctx.out;
  let decoder: HtmlDecoder | null = null;
  let parser: Parser<unknown> | null = null;
  let change: EncodingChange | null = null;
  // --summary
  const byType = new Map<string, number>();
  const byTextKind = new Map<string, number>();
  const tags = new Map<string, number>();
  const errors: ParseError[] = [];
  let tokens = 0;
  let bytes = 0;
  let chunkCount = 0;
  let chars = 0;
  // The round trip, streamed: decoded text not yet matched by a token's raw text (what the tokenizer holds).
  let pending = '';
  let roundTrip = true;

  const onToken = (token: Token): void => {
    if (change === null && decoder!.confidence === 'tentative') {
      // As the parser does for bytes (§13.2.6.4.4 "in head", §13.2.3.4): a <meta> naming an encoding.
      const requested = metaEncoding(token);
      change = requested === null ? null : changeTheEncoding(decoder!.encoding!, 'tentative', requested);
      if (change !== null) decoder!.confirm();
    }
    if (!o.summary) {
      out.line(tokenJson(token));
      return;
    }
    tokens++;
    bump(byType, token.type);
    if (token.type === 'text') bump(byTextKind, token.kind);
    else if (token.type === 'startTag') bump(tags, token.name);
    const raw = token.raw;
    if (roundTrip) {
      if (pending.startsWith(raw)) pending = pending.slice(raw.length);
      else roundTrip = false;
    }
  };
  const onError = (e: ParseError): void => {
    if (o.summary) errors.push(e);
    else if (o.errors) out.line(errorJson(e));
  };
  const feed = (text: string): void => {
    if (text === '') return;
    chars += text.length;
    if (o.summary && roundTrip) pending += text;
    parser!.write(text);
  };

  const started = performance.now();
  await readChunks(
    ctx,
    input,
    o.chunkSize,
    (defaultEncoding) => {
      decoder = new HtmlDecoder({ encoding: o.encoding, defaultEncoding });
      // The decoder has consumed a byte order mark: a U+FEFF in its text is text.
      parser = new Parser(new EventSink(), { scripting: o.scripting, stripByteOrderMark: false, onToken, ...(o.errors || o.summary ? { onParseError: onError } : {}) });
    },
    (chunk) => {
      bytes += chunk.length;
      if (chunk.length > 0) chunkCount++;
      feed(decoder!.write(chunk));
    },
  );
  feed(decoder!.end());
  parser!.end();
  const ms = performance.now() - started;
  if (change !== null && (change as EncodingChange).action === 'reparse') {
    note(ctx, `a <meta> after the first 1024 bytes names ${(change as EncodingChange).to}; the tokens above were decoded as ${decoder!.encoding} (a stream is not read twice; pass --encoding ${(change as EncodingChange).to})`);
  }
  if (!o.summary) return 0;
  if (pending !== '') roundTrip = false;
  out.line(`input: ${bytes} bytes in ${chunkCount} chunks of ${o.chunkSize}, ${chars} characters decoded`);
  out.line(describeEncoding(decoder!.sniffResult!, decoder!.confidence, false));
  out.line(`tokens: ${tokens} (${ms.toFixed(1)} ms)`);
  for (const [type, n] of sorted(byType)) out.line(`  ${type.padEnd(10)} ${n}`);
  out.line('text tokens by kind:');
  for (const [kind, n] of sorted(byTextKind)) out.line(`  ${kind.padEnd(10)} ${n}`);
  out.line('most frequent start tags:');
  out.line('  ' + sorted(tags).slice(0, 12).map(([name, n]) => `${name}×${n}`).join(' '));
  out.line(`parse errors: ${errors.length}`);
  if (o.errors) for (const e of errors) out.line(`  ${e.line}:${e.col} ${e.code}`);
  out.line(`round trip: ${roundTrip ? 'exact (concatenated raw tokens equal the decoded input)' : 'MISMATCH'}`);
  return roundTrip ? 0 : 1;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function sorted(map: Map<string, number>): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
