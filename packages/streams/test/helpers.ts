/** What the streams tests share: a pull source like a network body, and reading a stream to its end. */

/** A pull source (as a network body is): one chunk per pull, nothing read ahead. */
export function source<T>(
  impl: { ReadableStream: typeof ReadableStream },
  chunks: readonly T[],
  hooks: { onPull?: () => void; onCancel?: (reason: unknown) => void } = {},
): ReadableStream<T> {
  let i = 0;
  return new impl.ReadableStream<T>(
    {
      pull(c) {
        hooks.onPull?.();
        if (i < chunks.length) c.enqueue(chunks[i++]!);
        else c.close();
      },
      cancel(reason) {
        hooks.onCancel?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Every chunk of `stream`, in order. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}
