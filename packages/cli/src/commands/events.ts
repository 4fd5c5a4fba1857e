/**
 * `sluice events`: the tree builder's mutation events as JSON lines, streamed — `@sluice/dom`'s
 * `RecordingSink` shape (`replayRecording` rebuilds the DOM from them), written by {@link EventSink},
 * which holds nothing of the document but what the tree builder still refers to.
 */
import { Parser } from '@sluice/tree-builder';
import type { EncodingChange } from '@sluice/encoding';
import { EventSink, type EventNode } from '../sinks/event-sink.js';
import type { Input } from '../input.js';
import { note, readChunks, type Context } from './context.js';

export interface EventsOptions {
  chunkSize: number;
  encoding: string | undefined;
  scripting: boolean;
}

export async function eventsCommand(ctx: Context, input: Input, o: EventsOptions): Promise<number> {
  const out = ctx.out;
  let parser: Parser<EventNode> | null = null;
  await readChunks(
    ctx,
    input,
    o.chunkSize,
    (defaultEncoding) => {
      parser = new Parser(new EventSink((line) => out.line(line)), { scripting: o.scripting, encoding: o.encoding, defaultEncoding });
    },
    (chunk) => {
      parser!.write(chunk);
    },
  );
  parser!.end();
  lateMetaNote(ctx, parser!.encodingChange, parser!.encoding);
  return 0;
}

/** A `<meta>` after the first 1024 bytes that asks for a restart, on input that is streamed once. */
export function lateMetaNote(ctx: Context, change: EncodingChange | null, used: string | null): void {
  if (change?.action !== 'reparse') return;
  note(ctx, `a <meta> after the first 1024 bytes names ${change.to}; the input was decoded as ${used ?? 'before'} (a stream is not read twice; pass --encoding ${change.to})`);
}
