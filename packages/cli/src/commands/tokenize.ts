import { Tokenizer, type ParseError, type Token } from '@sluice/tokenizer';
import { HtmlDecoder, type EncodingChange, type SniffResult } from '@sluice/encoding';
import { changeTheEncoding, chunks, describeEncoding, metaEncoding, type DecodeOptions } from '../input.js';

export interface TokenizeOptions {
  chunkSize: number;
  showErrors: boolean;
  decode: DecodeOptions;
}

interface TokenizeRun {
  text: string;
  raw: string[];
  byType: Map<string, number>;
  byTextKind: Map<string, number>;
  tags: Map<string, number>;
  errors: ParseError[];
  chunkCount: number;
  ms: number;
  sniff: SniffResult;
  confidence: string | null;
  change: EncodingChange | null;
}

/**
 * `sluice tokenize`: streams the input bytes through the decoder (the standard's encoding sniffing) and
 * the tokenizer in chunks and prints a summary of the token stream — how the input was decoded, counts by
 * token type and text kind, the most frequent tags, parse errors, and the round-trip check (the
 * concatenated `raw` of all tokens must equal the decoded input). A `<meta>` that changes the encoding
 * after the first 1024 bytes restarts the run in the new encoding, as the parser's caller does.
 */
export function tokenize(bytes: Uint8Array, options: TokenizeOptions, out: (line: string) => void): boolean {
  let run = tokenizeOnce(bytes, options, options.decode);
  let reparsed = false;
  if (run.change?.action === 'reparse') {
    run = tokenizeOnce(bytes, options, { ...options.decode, encoding: run.change.to });
    reparsed = true;
  }
  const roundTrip = run.raw.join('') === run.text;

  out(`input: ${bytes.length} bytes in ${run.chunkCount} chunks of ${options.chunkSize}, ${run.text.length} characters decoded`);
  out(describeEncoding(run.sniff, run.confidence, reparsed));
  out(`tokens: ${run.raw.length} (${run.ms.toFixed(1)} ms)`);
  for (const [type, n] of sorted(run.byType)) out(`  ${type.padEnd(10)} ${n}`);
  out('text tokens by kind:');
  for (const [kind, n] of sorted(run.byTextKind)) out(`  ${kind.padEnd(10)} ${n}`);
  out('most frequent start tags:');
  out('  ' + sorted(run.tags).slice(0, 12).map(([name, n]) => `${name}×${n}`).join(' '));
  out(`parse errors: ${run.errors.length}`);
  if (options.showErrors) for (const e of run.errors) out(`  ${e.line}:${e.col} ${e.code}`);
  out(`round trip: ${roundTrip ? 'exact (concatenated raw tokens equal the decoded input)' : 'MISMATCH'}`);
  return roundTrip;
}

function tokenizeOnce(bytes: Uint8Array, options: TokenizeOptions, decode: DecodeOptions): TokenizeRun {
  const byType = new Map<string, number>();
  const byTextKind = new Map<string, number>();
  const tags = new Map<string, number>();
  const errors: ParseError[] = [];
  const raw: string[] = [];
  const decoded: string[] = [];
  let change: EncodingChange | null = null;
  let chunkCount = 0;
  const decoder = new HtmlDecoder(decode);
  const emit = (token: Token): void => {
    raw.push(token.raw);
    bump(byType, token.type);
    if (token.type === 'text') bump(byTextKind, token.kind);
    else if (token.type === 'startTag') {
      bump(tags, token.name);
      // No tree builder here: a <meta> met while the encoding is tentative counts as one in the head.
      if (change === null && decoder.confidence === 'tentative') {
        const requested = metaEncoding(token);
        change = requested === null ? null : changeTheEncoding(decoder.encoding!, 'tentative', requested);
        if (change !== null) decoder.confirm();
      }
    }
  };
  // The decoder consumes a byte order mark, so a U+FEFF in its text is text.
  const tokenizer = new Tokenizer({ onError: (e) => errors.push(e), discardByteOrderMark: false });
  const write = (text: string): void => {
    if (text === '') return;
    decoded.push(text);
    tokenizer.write(text, emit);
  };
  const started = performance.now();
  for (const chunk of chunks(bytes, options.chunkSize)) {
    write(decoder.write(chunk));
    chunkCount++;
  }
  write(decoder.end());
  tokenizer.end(emit);
  const ms = performance.now() - started;
  return { text: decoded.join(''), raw, byType, byTextKind, tags, errors, chunkCount, ms, sniff: decoder.sniffResult!, confidence: decoder.confidence, change };
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function sorted(map: Map<string, number>): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
