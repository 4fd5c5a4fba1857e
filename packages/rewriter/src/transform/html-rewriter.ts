/**
 * `HTMLRewriter`: Cloudflare Workers' API over sluice's tokenizer and tree builder. Register handlers
 * with `on(selector, …)` and `onDocument(…)`, then `transform()` a `Response` or a `ReadableStream`.
 */
import type { CommentUnit } from '../rewritable-units/comment.js';
import type { DoctypeUnit } from '../rewritable-units/doctype.js';
import type { DocumentEndUnit } from '../rewritable-units/document-end.js';
import type { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import { parseSelector } from '../selectors/parse.js';
import { rightmostTags } from '../selectors/match.js';
import { SelectorRegistry } from '../selectors/registry.js';
import type { CompiledHandlers, DocumentHandlers, ElementHandlers, Fn, Registration } from './handlers.js';
import { type ByteEncodingOptions, ByteTransformer } from './byte-transformer.js';
import { type RewriterOptions, Transformer, maxBufferedOf } from './transformer.js';
import { holdReleaseOf } from './limits.js';

/** Bind `handlers[name]` as a method, after checking it is a function (or absent). */
function method<T>(handlers: object, name: string, where: string): Fn<T> | null {
  const f = (handlers as Record<string, unknown>)[name];
  if (f === undefined || f === null) return null;
  if (typeof f !== 'function') throw new TypeError(`${where}: handlers.${name} must be a function, got ${typeof f}`);
  return (f as (u: T) => void | Promise<void>).bind(handlers);
}

function checkHandlers(handlers: unknown, where: string): object {
  if (handlers === null || typeof handlers !== 'object') {
    throw new TypeError(`${where}: handlers must be an object like { element(el) {…} }, got ${handlers === null ? 'null' : typeof handlers}`);
  }
  return handlers;
}

function isResponse(x: unknown): x is Response {
  return typeof Response !== 'undefined' && x instanceof Response;
}

/**
 * A streaming HTML rewriter with the interface of Cloudflare Workers' `HTMLRewriter`.
 *
 * Selectors match the elements `document.querySelectorAll` would match in a browser that parsed the same
 * input (see docs/rewriter.md for the exact guarantee). Output not touched by a handler is the input,
 * byte for byte.
 */
export class HTMLRewriter {
  private readonly registry = new SelectorRegistry();
  private readonly registrations: Registration[] = [];
  private readonly documentHandlers = {
    doctype: [] as Fn<DoctypeUnit>[],
    comments: [] as Fn<CommentUnit>[],
    text: [] as Fn<TextChunkUnit>[],
    end: [] as Fn<DocumentEndUnit>[],
  };
  private compiled: CompiledHandlers | null = null;
  private byteCompiled: CompiledHandlers | null = null;

  /** @param options see {@link RewriterOptions} (`maxBufferedBytes`, `scripting`). */
  constructor(private readonly options: RewriterOptions = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('HTMLRewriter: options must be an object');
  }

  /**
   * Call `handlers` for elements matching `selector`, and for the text and comments inside them.
   * Throws an Error naming the unsupported part of a selector a stream cannot decide.
   */
  on(selector: string, handlers: ElementHandlers): this {
    const h = checkHandlers(handlers, `HTMLRewriter.on(${JSON.stringify(selector)})`);
    const list = parseSelector(selector);
    const where = `HTMLRewriter.on(${JSON.stringify(selector)})`;
    const registration: Registration = {
      selector,
      list,
      element: method(h, 'element', where),
      comments: method(h, 'comments', where),
      text: method(h, 'text', where),
    };
    this.registry.add(list);
    this.registrations.push(registration);
    this.compiled = null;
    this.byteCompiled = null;
    return this;
  }

  /** Call `handlers` for the doctype, every comment, every text chunk, and the end of the document. */
  onDocument(handlers: DocumentHandlers): this {
    const h = checkHandlers(handlers, 'HTMLRewriter.onDocument');
    const where = 'HTMLRewriter.onDocument';
    const d = this.documentHandlers;
    const doctype = method<DoctypeUnit>(h, 'doctype', where);
    const comments = method<CommentUnit>(h, 'comments', where);
    const text = method<TextChunkUnit>(h, 'text', where);
    const end = method<DocumentEndUnit>(h, 'end', where);
    if (doctype !== null) d.doctype.push(doctype);
    if (comments !== null) d.comments.push(comments);
    if (text !== null) d.text.push(text);
    if (end !== null) d.end.push(end);
    this.compiled = null;
    this.byteCompiled = null;
    return this;
  }

  /** @internal The registrations, compiled for a transform (cached until the next `on`/`onDocument`). */
  compile(): CompiledHandlers {
    return (this.compiled ??= this.compileWith(this.registry, this.registrations));
  }

  /**
   * @internal `compile()` with selectors in byte form, for input in byte form (`ByteTransformer`): the
   * same object when every selector is ASCII (the usual case), else each selector parsed again.
   */
  compileForBytes(): CompiledHandlers {
    if (this.byteCompiled !== null) return this.byteCompiled;
    // Without non-ASCII characters or escapes (`\e9`), a selector's names and values are ASCII.
    if (this.registrations.every((r) => !/[^\x00-\x7f]|\\/.test(r.selector))) return (this.byteCompiled = this.compile());
    const registry = new SelectorRegistry();
    const registrations = this.registrations.map((r) => {
      const list = parseSelector(r.selector, true);
      registry.add(list);
      return { ...r, list };
    });
    return (this.byteCompiled = this.compileWith(registry, registrations));
  }

  private compileWith(registry: SelectorRegistry, registrations: readonly Registration[]): CompiledHandlers {
    const byTag = new Map<string, number[]>();
    const anyTag: number[] = [];
    registrations.forEach((r, i) => {
      const tags = rightmostTags(r.list);
      if (tags === null) anyTag.push(i);
      else for (const t of tags) (byTag.get(t) ?? byTag.set(t, []).get(t)!).push(i);
    });
    const d = this.documentHandlers;
    return {
      registry,
      registrations: registrations.slice(),
      byTag,
      anyTag,
      docDoctype: d.doctype.slice(),
      docComments: d.comments.slice(),
      docText: d.text.slice(),
      docEnd: d.end.slice(),
    };
  }

  /**
   * A push-style rewrite: `write(string)` chunks, then `end()`; output goes to `onOutput` as soon as it
   * is decided. `write`/`end` return a promise only while an async handler is pending.
   */
  createTransformer(onOutput: (chunk: string) => void): Transformer {
    return new Transformer(this.compile(), this.options, onOutput);
  }

  /**
   * The push interface with UTF-8 bytes in and out (a sluice addition): `write(Uint8Array)` chunks,
   * then `end()`; `onOutput` receives a new `Uint8Array` each time. Faster than decoding and encoding
   * around `createTransformer`: untouched valid UTF-8 is copied from the input, not encoded again.
   */
  createByteTransformer(onOutput: (chunk: Uint8Array) => void, encoding?: ByteEncodingOptions): ByteTransformer {
    return new ByteTransformer(this.compileForBytes(), this.options, onOutput, encoding);
  }

  /**
   * Rewrite a `Response` (returns a new `Response` with the same status and headers, minus
   * `content-length`) or a `ReadableStream` of `Uint8Array` (UTF-8) or string chunks (returns a stream
   * of the same kind of chunks, made by the same streams implementation).
   */
  transform(response: Response): Response;
  transform(stream: ReadableStream<Uint8Array>, encoding?: ByteEncodingOptions): ReadableStream<Uint8Array>;
  transform(stream: ReadableStream<string>): ReadableStream<string>;
  transform(input: Response | ReadableStream<Uint8Array> | ReadableStream<string>, encoding?: ByteEncodingOptions): Response | ReadableStream<Uint8Array> | ReadableStream<string> {
    if (isResponse(input)) {
      const headers = new Headers(input.headers);
      headers.delete('content-length');
      // The body's encoding: sniffed, with the header's charset as the transport layer's (HTML §13.2.3.2).
      const contentType = input.headers.get('content-type');
      const options: ByteEncodingOptions | undefined = contentType === null ? undefined : { contentType };
      const body = this.transformStream((input.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })) as ReadableStream<Uint8Array | string>, options);
      return new Response(body as ReadableStream<Uint8Array>, { status: input.status, statusText: input.statusText, headers });
    }
    if (input === null || typeof input !== 'object' || typeof (input as ReadableStream).getReader !== 'function') {
      throw new TypeError('HTMLRewriter.transform: expected a Response or a ReadableStream');
    }
    return this.transformStream(input as ReadableStream<Uint8Array | string>, encoding) as ReadableStream<Uint8Array>;
  }

  /**
   * Pull-driven, so backpressure reaches the source: each `pull` reads input chunks only until one of
   * them gave output (or the input ended, or something failed). A chunk may give no output at all (a
   * `<` whose role is not yet known, the middle of a comment): a `pull` that returned then without
   * enqueueing would never be called again (the Streams standard pulls again only after an enqueue), and
   * the output would hang, hiding errors with it. The output stream is made with the input stream's own
   * constructor (web-streams-polyfill in, web-streams-polyfill out).
   *
   * Errors: whatever fails — a handler (thrown or rejected), the `maxBufferedBytes` bound, the input
   * itself — rejects the `pull`, which errors the output with that very error object; the input is
   * cancelled with it. Cancelling the output cancels the input and stops the transformer: nothing is
   * written or enqueued after that, and no end handler runs.
   */
  private transformStream(input: ReadableStream<Uint8Array | string>, encoding?: ByteEncodingOptions): ReadableStream<Uint8Array | string> {
    const reader = input.getReader();
    const Stream = input.constructor as typeof ReadableStream;
    // The handlers registered now are the ones this transform uses, even if more come before it starts.
    const config = this.compile();
    const byteConfig = this.compileForBytes();
    // Bad options throw at once, as a transformer made now would.
    maxBufferedOf(this.options);
    holdReleaseOf(this.options);
    // Made at the first chunk, which tells whether the stream is of bytes or of strings (bytes when
    // there is none: a Response body).
    let transformer: Transformer | ByteTransformer | null = null;
    let bytes = false;
    // Set by the output callback: the current `pull` may return.
    let produced = false;
    // Set when the output is cancelled: an async handler still running must not enqueue (the controller
    // would throw), and a read that the cancel ended (`done`) is not the end of the document.
    let cancelled = false;
    let enqueue: (chunk: Uint8Array | string) => void;
    return new Stream<Uint8Array | string>({
      start: (controller) => {
        enqueue = (chunk) => {
          if (cancelled) return;
          produced = true;
          controller.enqueue(chunk);
        };
      },
      pull: async (controller) => {
        produced = false;
        try {
          while (!produced) {
            const { value, done } = await reader.read();
            if (cancelled) return;
            if (done) {
              transformer ??= new ByteTransformer(byteConfig, this.options, enqueue, encoding);
              const p = transformer.end();
              if (p !== undefined) await p;
              if (!cancelled) controller.close();
              return;
            }
            if (transformer === null) {
              bytes = typeof value !== 'string';
              transformer = bytes ? new ByteTransformer(byteConfig, this.options, enqueue, encoding) : new Transformer(config, this.options, enqueue);
            }
            let p: void | Promise<void>;
            if (typeof value === 'string') {
              if (bytes) throw new TypeError('HTMLRewriter.transform: a stream of bytes gave a string chunk');
              p = (transformer as Transformer).write(value);
            } else {
              if (!bytes) throw new TypeError('HTMLRewriter.transform: a stream of strings gave a non-string chunk');
              if (!(value instanceof Uint8Array)) throw new TypeError('HTMLRewriter.transform: expected Uint8Array chunks');
              p = (transformer as ByteTransformer).write(value);
            }
            // Most chunks finish synchronously; awaiting only real promises saves a microtask per chunk.
            if (p !== undefined) await p;
            if (cancelled) return;
          }
        } catch (err) {
          // After a cancel the output is gone and the input already cancelled: nobody is left to tell.
          if (cancelled) return;
          // The input's own error needs no cancel (it is errored already; the promise rejects, ignored).
          reader.cancel(err).catch(() => {});
          throw err;
        }
      },
      cancel: (reason) => {
        cancelled = true;
        return reader.cancel(reason);
      },
    });
  }
}
