/**
 * `HTMLRewriter.transform()` on bodies whose chunks give no output of their own. Its output stream is
 * pull-driven, and the Streams standard calls `pull` again only after an enqueue: a `pull` that read a
 * chunk giving no output and returned would leave the output waiting forever (and an error with it).
 * The wider stall suite is packages/streams/test/stall.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HTMLRewriter } from '../src/index.js';

const encoder = new TextEncoder();

/** A Response whose body arrives as these chunks, one per pull (as a network body does). */
function chunkedResponse(chunks: readonly string[]): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (i < chunks.length) c.enqueue(encoder.encode(chunks[i++]!));
        else c.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body);
}

/** `p`, or a rejection if it has not settled within `ms`: a stall fails the test instead of hanging it. */
function within<T>(p: Promise<T>, ms = 2000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`stalled: not settled within ${ms} ms`)), ms)));
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

describe('transform() never stalls on chunks without output', () => {
  it("a Response of '<' gives '<'", async () => {
    expect(await within(new HTMLRewriter().transform(new Response('<')).text())).toBe('<');
  });

  it("a body arriving as '<!--', 'abc', '-->' gives it back", async () => {
    expect(await within(new HTMLRewriter().transform(chunkedResponse(['<!--', 'abc', '-->'])).text())).toBe('<!--abc-->');
  });

  it('the same with handlers, and every chunk a single byte', async () => {
    const seen: string[] = [];
    const rewriter = new HTMLRewriter().onDocument({
      comments(c) {
        seen.push(c.text);
      },
      end(e) {
        e.append('!');
      },
    });
    expect(await within(rewriter.transform(chunkedResponse([...'<!--abc-->'])).text())).toBe('<!--abc-->!');
    expect(seen).toEqual(['abc']);
  });

  it('a maxBufferedBytes overflow on a chunked body reaches the reader', async () => {
    const chunks = ['<!--', ...Array.from({ length: 20 }, () => 'comment '), '-->'];
    const rewriter = new HTMLRewriter({ maxBufferedBytes: 64 }).onDocument({ comments() {} });
    await expect(within(rewriter.transform(chunkedResponse(chunks)).text())).rejects.toThrow(/maxBufferedBytes \(64\) exceeded/);
  });
});
