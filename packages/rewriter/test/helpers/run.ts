/** Run an HTMLRewriter over string chunks with the push API; collect output per write. */
import { HTMLRewriter, type RewriterOptions } from '@sluice/rewriter';

export interface RunResult {
  out: string;
  /** Output released by the end of each write (then by end()). */
  perWrite: string[];
}

export async function runRewriter(setup: (r: HTMLRewriter) => void, chunks: readonly string[], options?: RewriterOptions): Promise<RunResult> {
  const r = new HTMLRewriter(options);
  setup(r);
  let out = '';
  const perWrite: string[] = [];
  const t = r.createTransformer((s) => (out += s));
  for (const c of chunks) {
    await t.write(c);
    perWrite.push(out);
  }
  await t.end();
  perWrite.push(out);
  return { out, perWrite };
}
