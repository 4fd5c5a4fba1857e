import { Tokenizer, type ParseError, type Token } from '@sluice/tokenizer';
import { chunks } from '../input.js';

export interface TokenizeOptions {
  chunkSize: number;
  showErrors: boolean;
}

/**
 * `sluice tokenize`: streams the input through the tokenizer in chunks and prints a summary of the token
 * stream — counts by token type and text kind, the most frequent tags, parse errors, and the round-trip
 * check (the concatenated `raw` of all tokens must equal the input).
 */
export function tokenize(html: string, options: TokenizeOptions, out: (line: string) => void): boolean {
  const byType = new Map<string, number>();
  const byTextKind = new Map<string, number>();
  const tags = new Map<string, number>();
  const errors: ParseError[] = [];
  const raw: string[] = [];
  let chunkCount = 0;
  const emit = (token: Token): void => {
    raw.push(token.raw);
    bump(byType, token.type);
    if (token.type === 'text') bump(byTextKind, token.kind);
    else if (token.type === 'startTag') bump(tags, token.name);
  };
  const tokenizer = new Tokenizer({ onError: (e) => errors.push(e) });
  const started = performance.now();
  for (const chunk of chunks(html, options.chunkSize)) {
    tokenizer.write(chunk, emit);
    chunkCount++;
  }
  tokenizer.end(emit);
  const ms = performance.now() - started;
  const roundTrip = raw.join('') === html;

  out(`input: ${html.length} characters in ${chunkCount} chunks of ${options.chunkSize}`);
  out(`tokens: ${raw.length} (${ms.toFixed(1)} ms)`);
  for (const [type, n] of sorted(byType)) out(`  ${type.padEnd(10)} ${n}`);
  out('text tokens by kind:');
  for (const [kind, n] of sorted(byTextKind)) out(`  ${kind.padEnd(10)} ${n}`);
  out('most frequent start tags:');
  out('  ' + sorted(tags).slice(0, 12).map(([name, n]) => `${name}×${n}`).join(' '));
  out(`parse errors: ${errors.length}`);
  if (options.showErrors) for (const e of errors) out(`  ${e.line}:${e.col} ${e.code}`);
  out(`round trip: ${roundTrip ? 'exact (concatenated raw tokens equal the input)' : 'MISMATCH'}`);
  return roundTrip;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function sorted(map: Map<string, number>): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
