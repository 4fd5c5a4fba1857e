/** Helpers for the tokenizer's unit tests. */

import { Tokenizer, type ParseError, type Token, type TokenizerOptions } from '../src/index.js';

/** A compact view of a token: type, raw, start, and its kind for text. */
export function brief(t: Token): string {
  return t.type === 'text' ? `${t.type}:${t.kind}:${JSON.stringify(t.raw)}@${t.start}` : `${t.type}:${JSON.stringify(t.raw)}@${t.start}`;
}

/** Tokenizes `chunks` (then end()), returning the tokens and errors. */
export function tokenize(chunks: string | string[], options: TokenizerOptions = {}): { tokens: Token[]; errors: ParseError[] } {
  const tokens: Token[] = [];
  const errors: ParseError[] = [];
  const tokenizer = new Tokenizer({ onError: (e) => errors.push(e), ...options });
  const emit = (t: Token) => tokens.push(t);
  for (const chunk of typeof chunks === 'string' ? [chunks] : chunks) tokenizer.write(chunk, emit);
  tokenizer.end(emit);
  return { tokens, errors };
}

/** A recorder: `emit` collects tokens; `take()` returns and clears what was emitted since the last call. */
export function recorder(): { emit: (t: Token) => void; take: () => string[]; all: Token[] } {
  const all: Token[] = [];
  let since = 0;
  return {
    all,
    emit: (t) => all.push(t),
    take: () => {
      const out = all.slice(since).map(brief);
      since = all.length;
      return out;
    },
  };
}

/** The one token of type `type` in `tokens` (fails if there is not exactly one). */
export function only<T extends Token['type']>(tokens: Token[], type: T): Extract<Token, { type: T }> {
  const found = tokens.filter((t) => t.type === type);
  if (found.length !== 1) throw new Error(`expected one ${type} token, got ${found.length}: ${tokens.map(brief).join(' ')}`);
  return found[0] as Extract<Token, { type: T }>;
}

/** All text tokens' values joined. */
export function textOf(tokens: Token[]): string {
  return tokens.map((t) => (t.type === 'text' ? t.value : '')).join('');
}
