/** `Tokenizer.debugState()` / `debugState(snapshot)`: the state by the standard's name, the held text, the pending token. */

import { describe, expect, it } from 'vitest';
import { Tokenizer, debugState, type TokenizerDebugState } from '../src/index.js';

/** The debug state after writing each chunk (the chunks are written one after the other). */
function after(chunks: string[], options: ConstructorParameters<typeof Tokenizer>[0] = {}): TokenizerDebugState {
  const t = new Tokenizer(options);
  for (const c of chunks) t.write(c, () => {});
  return t.debugState();
}

describe('debugState', () => {
  it('names the state as §13.2.5 titles it, with its section', () => {
    expect(after(['<p']).state).toBe('tag name');
    expect(after(['<p']).section).toBe('13.2.5.8');
    expect(after(['<p a="x']).state).toBe('attribute value (double-quoted)');
    expect(after(['<p a=x']).state).toBe('attribute value (unquoted)');
    expect(after(['<p a="x"']).state).toBe('after attribute value (quoted)');
    expect(after(['<br/']).state).toBe('self-closing start tag');
    expect(after(['<!DOCTYPE html PUBLIC "x']).state).toBe('DOCTYPE public identifier (double-quoted)');
    expect(after(['<title>a<'], {}).state).toBe('RCDATA less-than sign');
    expect(after(['<!-- a <!-']).state).toBe('comment less-than sign bang dash');
    expect(after(['x']).state).toBe('data');
    expect(after(['x']).section).toBe('13.2.5.1');
  });

  it('gives the held text and the token it is becoming, across chunks', () => {
    const tag = after(['a <P cl', 'ass="x"']);
    expect(tag.heldText).toBe('<P class="x"');
    expect(tag.pendingToken).toEqual({ type: 'startTag', raw: '<P class="x"', start: 2, name: 'p' });
    expect(after(['</DI']).pendingToken).toMatchObject({ type: 'endTag', name: 'di' });
    expect(after(['x &am']).pendingToken).toEqual({ type: 'characterReference', raw: '&am', start: 2, name: null });
    expect(after(['<title>a &lt; b</TI']).pendingToken).toMatchObject({ type: 'endTagCandidate', raw: '</TI', name: 'ti' });
    expect(after(['<!-- hi']).pendingToken).toMatchObject({ type: 'comment', raw: '<!-- hi' });
    expect(after(['<!-']).pendingToken).toMatchObject({ type: 'markupDeclaration', raw: '<!-' });
    expect(after(['<!DOCTYPE HT']).pendingToken).toMatchObject({ type: 'doctype', name: 'ht' });
    expect(after(['<!DOCTYPE html ']).pendingToken).toMatchObject({ type: 'doctype', name: 'html' });
    expect(after(['a<']).pendingToken).toMatchObject({ type: 'undecided', raw: '<', start: 1 });
    expect(after(['a\r']).pendingToken).toMatchObject({ type: 'text', raw: '\r' });
  });

  it('holds nothing once a token is emitted', () => {
    const s = after(['<p>hello']);
    expect(s.heldText).toBe('');
    expect(s.pendingToken).toBeNull();
    expect(s.offset).toBe(8);
  });

  it('reads any snapshot (restored, JSON round-tripped) the same', () => {
    const t = new Tokenizer();
    t.write('<a href=', () => {});
    const snap = JSON.parse(JSON.stringify(t.snapshot()));
    expect(debugState(snap)).toEqual(t.debugState());
    expect(() => debugState({ ...snap, state: 'NOPE' })).toThrow(/not a tokenizer snapshot/);
  });
});
