/**
 * The reverse proxy: every request goes to one upstream origin; HTML responses stream back through the
 * rewriter, everything else is copied untouched.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { Transform, pipeline } from 'node:stream';
import type { HTMLRewriter } from '@sluice/rewriter';
import { decide } from './decide.js';
import { forwardHeaders } from './headers.js';
import { exampleRewriter } from './rewriter.js';

/** Options of {@link createProxy}. */
export interface ProxyOptions {
  /** The origin requests go to, e.g. `http://127.0.0.1:8080`. Only `http:` is supported. */
  upstream: string | URL;
  /** A new HTMLRewriter for each HTML response (default: {@link exampleRewriter}). */
  rewriter?: () => HTMLRewriter;
  /** Called for each response: whether it was rewritten, and why not. For logs and tests. */
  onResponse?: (info: { url: string; rewritten: boolean; reason?: string }) => void;
}

/**
 * A Node Transform that runs a sluice rewrite: UTF-8 bytes in, UTF-8 bytes out. The transform callback
 * waits while an async handler is pending, so backpressure reaches the upstream socket.
 */
export function rewriteTransform(rewriter: HTMLRewriter): Transform {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let push: (s: string) => void = () => {};
  const t = rewriter.createTransformer((s) => push(s));
  const settle = (step: () => void | Promise<void>, done: (err?: Error | null) => void) => {
    let p: void | Promise<void>;
    try {
      p = step();
    } catch (err) {
      done(err as Error);
      return;
    }
    if (p === undefined) done();
    else p.then(() => done(), (err: Error) => done(err));
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      settle(() => t.write(decoder.decode(chunk, { stream: true })), done);
    },
    flush(done) {
      settle(() => {
        const tail = decoder.decode();
        const p = tail.length > 0 ? t.write(tail) : undefined;
        return p === undefined ? t.end() : p.then(() => t.end());
      }, done);
    },
  });
  push = (s) => void stream.push(Buffer.from(s, 'utf8'));
  return stream;
}

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

/** Create (not start) the proxy server: `createProxy(opts).listen(port, '127.0.0.1')`. */
export function createProxy(options: ProxyOptions): Server {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:') throw new Error(`createProxy: upstream must be an http: URL, got ${upstream.protocol}`);
  const makeRewriter = options.rewriter ?? (() => exampleRewriter());

  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const headers = forwardHeaders(req.headers, ['host']);
    headers.host = upstream.host;
    const forwardedFor = req.socket.remoteAddress;
    if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
    const up = httpRequest(
      { hostname: upstream.hostname, port: upstream.port || 80, method, path: req.url ?? '/', headers },
      (upRes) => {
        const decision = decide(method, upRes);
        options.onResponse?.({ url: req.url ?? '/', rewritten: decision.rewrite, ...(decision.rewrite ? {} : { reason: decision.reason }) });
        if (!decision.rewrite) {
          res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, forwardHeaders(upRes.headers));
          pipeline(upRes, res, () => {});
          return;
        }
        // The body changes: its length and coding no longer hold.
        res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, forwardHeaders(upRes.headers, ['content-length', 'content-encoding', 'content-md5', 'etag']));
        const onError = (err: NodeJS.ErrnoException | null) => {
          if (err) res.destroy(err);
        };
        if (decision.decoder === null) pipeline(upRes, rewriteTransform(makeRewriter()), res, onError);
        else pipeline(upRes, decision.decoder(), rewriteTransform(makeRewriter()), res, onError);
      },
    );
    up.on('error', (err) => fail(res, 502, `upstream error: ${err.message}`));
    pipeline(req, up, (err) => {
      if (err) up.destroy(err);
    });
  });
}
