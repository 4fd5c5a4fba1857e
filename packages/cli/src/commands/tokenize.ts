/**
 * `sluice tokenize`: the tokens of the input as JSON lines, streamed — or, with `--summary`, the counts
 * and the round-trip check the command printed before.
 */
import { Parser } from '@sluice/tree-builder';
import type { ParseError, Token } from '@sluice/tokenizer';
import { EventSink } from '../sinks/event-sink.js';
import { describeEncoding, type Input } from '../input.js';
import { MetaWatch, readDecoded, type Context } from './context.js';
import { lateMetaNote } from './events.js';

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
  const meta = new MetaWatch();
  // --summary
  const byType = new Map<string, number>();
  const byTextKind = new Map<string, number>();
  const tags = new Map<string, number>();
  const errors: ParseError[] = [];
  let tokens = 0;
  let chars = 0;
  // The round trip, streamed: decoded text not yet matched by a token's raw text (what the tokenizer holds).
  let pending = '';
  let roundTrip = true;

  const onToken = (token: Token): void => {
    meta.onToken(token);
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
  // The decoder consumes a byte order mark, so a U+FEFF in its text is text.
  const parser = new Parser(new EventSink(), { scripting: o.scripting, stripByteOrderMark: false, onToken, ...(o.errors || o.summary ? { onParseError: onError } : {}) });
  let bytes = 0;
  let chunkCount = 0;
  const counted: Input = {
    ...input,
    chunks: async function* (size, progress) {
      for await (const c of input.chunks(size, progress)) {
        bytes += c.length;
        chunkCount++;
        yield c;
      }
    },
  };
  const started = performance.now();
  const { decoder } = await readDecoded(
    ctx,
    counted,
    o.chunkSize,
    o.encoding,
    (text) => {
      chars += text.length;
      if (o.summary && roundTrip) pending += text;
      parser.write(text);
    },
    () => parser.end(),
    meta,
  );
  const ms = performance.now() - started;
  lateMetaNote(ctx, meta.change, decoder.encoding);
  if (!o.summary) return 0;
  if (pending !== '') roundTrip = false;
  out.line(`input: ${bytes} bytes in ${chunkCount} chunks of ${o.chunkSize}, ${chars} characters decoded`);
  out.line(describeEncoding(decoder.sniffResult!, decoder.confidence, false));
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
