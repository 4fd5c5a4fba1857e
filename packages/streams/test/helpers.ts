/** What the streams tests share: both streams implementations, a pull source like a network body, and reading a stream to its end. */
import * as polyfill from 'web-streams-polyfill';
import { runtimeStreams, type StreamsImplementation } from '@sluice/streams';

/** A streams implementation to run a test on: what the stages take (`streams`) and the classes to feed them. */
export interface Impl {
  name: string;
  streams: StreamsImplementation;
  ReadableStream: typeof ReadableStream;
  WritableStream: typeof WritableStream;
}

/** The runtime's own streams and web-streams-polyfill's: every stream test runs on both. */
export const IMPLEMENTATIONS: readonly Impl[] = [
  { name: 'runtime streams', streams: runtimeStreams(), ReadableStream: globalThis.ReadableStream, WritableStream: globalThis.WritableStream },
  {
    name: 'web-streams-polyfill',
    streams: { TransformStream: polyfill.TransformStream as unknown as typeof TransformStream },
    ReadableStream: polyfill.ReadableStream as unknown as typeof ReadableStream,
    WritableStream: polyfill.WritableStream as unknown as typeof WritableStream,
  },
];

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
