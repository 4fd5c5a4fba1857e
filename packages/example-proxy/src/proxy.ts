/**
 * The reverse proxy: every request goes to one upstream origin; HTML responses stream back through the
 * rewriter, everything else is copied untouched.
 *
 * Hostile upstreams: each exchange has its own connect, header and idle timers; every failure (a
 * timeout, a reset, a body that does not decode, a rewriter error) ends that exchange only — 502 or 504
 * while nothing has been sent to the client, a clean end of the response after — and is logged. A token
 * past the rewriter's bound switches the rest of that page to passthrough (see rewrite-transform.ts).
 */
import { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse, createServer, request as httpRequest } from 'node:http';
import { type Transform, Writable, pipeline } from 'node:stream';
import { DEFAULT_MAX_BUFFERED_BYTES, type HTMLRewriter } from '@sluice/rewriter';
import { decide } from './decide.js';
import { forwardHeaders } from './headers.js';
import { rewriteTransform } from './rewrite-transform.js';
import { exampleRewriter } from './rewriter.js';

/** Upstream timeouts, in milliseconds. */
export interface ProxyTimeouts {
  /** Opening the TCP connection (not counted for a reused keep-alive connection). Default 5 000. */
  connect?: number;
  /** From the request sent (its body included) to the response headers. Default 30 000. */
  headers?: number;
  /**
   * Between two pieces of the response body, while the proxy is reading it (not while it holds the
   * upstream back because the client reads slowly). Default 30 000.
   */
  idle?: number;
}

/** A log entry: something went wrong with one exchange, or the proxy degraded a page. */
export interface ProxyLogEntry {
  /** The request's path. */
  url: string;
  /**
   * `timeout-connect`, `timeout-headers`, `timeout-idle`; `upstream-error` (refused, reset, truncated
   * body); `decode-error` (a content coding that fails); `rewrite-error`; `degraded` (a token past the
   * bound: the rest of the page passed through unrewritten); `client-gone` (the client closed first:
   * the upstream is aborted).
   */
  event: 'timeout-connect' | 'timeout-headers' | 'timeout-idle' | 'upstream-error' | 'decode-error' | 'rewrite-error' | 'degraded' | 'client-gone';
  /** What the client got: a 502 or 504, the response ended early (`ended`), the connection closed after a body with a declared length (`closed`), the page continued (`continued`), or nothing (`none`: the client was gone). */
  outcome: 502 | 504 | 'ended' | 'closed' | 'continued' | 'none';
  message: string;
}

/** Options of {@link createProxy}. */
export interface ProxyOptions {
  /** The origin requests go to, e.g. `http://127.0.0.1:8080`. Only `http:` is supported. */
  upstream: string | URL;
  /** A new HTMLRewriter for each HTML response (default: {@link exampleRewriter} with `maxBufferedBytes`). */
  rewriter?: () => HTMLRewriter;
  /**
   * The rewriter's `maxBufferedBytes` (default 16 MiB): given to the default rewriter, and what degraded
   * mode keeps of recent input to resume from. With a `rewriter` of your own, make its bound this one.
   */
  maxBufferedBytes?: number;
  /** Upstream timeouts; see {@link ProxyTimeouts}. */
  timeouts?: ProxyTimeouts;
  /** Called for each response: whether it was rewritten, and why not. For logs and tests. */
  onResponse?: (info: { url: string; rewritten: boolean; reason?: string }) => void;
  /** Where failures and degraded pages are reported (default: one line each on stderr). */
  log?: (entry: ProxyLogEntry) => void;
}

/** The default upstream timeouts, in ms. */
export const DEFAULT_TIMEOUTS: Readonly<Required<ProxyTimeouts>> = Object.freeze({ connect: 5_000, headers: 30_000, idle: 30_000 });

const defaultLog = (e: ProxyLogEntry): void => {
  console.error(`sluice-example-proxy: ${e.url}: ${e.event} (${e.outcome}): ${e.message}`);
};

/** The failure of an exchange that no stream raised: a timeout, the client gone. */
class ExchangeAbort extends Error {
  constructor(
    readonly event: ProxyLogEntry['event'],
    message: string,
  ) {
    super(message);
  }
}

/** Create (not start) the proxy server: `createProxy(opts).listen(port, '127.0.0.1')`. */
export function createProxy(options: ProxyOptions): Server {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:') throw new Error(`createProxy: upstream must be an http: URL, got ${upstream.protocol}`);
  const bound = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const makeRewriter = options.rewriter ?? (() => exampleRewriter(undefined, { maxBufferedBytes: bound }));
  const timeouts = { ...DEFAULT_TIMEOUTS };
  for (const key of ['connect', 'headers', 'idle'] as const) {
    const v = options.timeouts?.[key];
    if (v === undefined) continue; // (an explicit undefined keeps the default, not setTimeout's 1 ms)
    if (typeof v !== 'number' || !(v > 0)) throw new Error(`createProxy: timeouts.${key} must be a positive number of ms, got ${String(v)}`);
    timeouts[key] = v;
  }
  const log = options.log ?? defaultLog;

  return createServer((req, res) => {
    // Whatever happens in one exchange stays in it: a throw here would take the server down.
    try {
      exchange(req, res);
    } catch (err) {
      safeLog({ url: req.url ?? '/', event: 'upstream-error', outcome: res.headersSent ? 'ended' : 502, message: `internal: ${(err as Error).message}` });
      fail(res, 502, 'proxy error');
    }
  });

  function safeLog(entry: ProxyLogEntry): void {
    try {
      log(entry);
    } catch {
      // A broken logger must not break the exchange it reports on.
    }
  }

  function exchange(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const headers = forwardHeaders(req.headers, ['host']);
    headers.host = upstream.host;
    const forwardedFor = req.socket.remoteAddress;
    if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;

    let settled = false; // the exchange's one failure (or the client's close) has been handled
    let upRes: IncomingMessage | null = null;
    let sink: Writable | null = null;
    let declaredLength = false; // the response to the client carries a content-length
    const timers = new Set<NodeJS.Timeout>();
    const timer = (ms: number, event: ProxyLogEntry['event'], what: string): NodeJS.Timeout => {
      const h = setTimeout(() => {
        timers.delete(h);
        finish(new ExchangeAbort(event, `${what} after ${ms} ms`), event);
      }, ms);
      timers.add(h);
      return h;
    };
    const clear = (h: NodeJS.Timeout | null): void => {
      if (h === null) return;
      clearTimeout(h);
      timers.delete(h);
    };
    const clearAll = (): void => {
      for (const h of timers) clearTimeout(h);
      timers.clear();
    };

    /** The exchange failed with `err` (from any stage): tell the client what can still be told, log, stop the upstream. */
    const finish = (err: Error, event: ProxyLogEntry['event']): void => {
      if (settled) return;
      settled = true;
      clearAll();
      let outcome: ProxyLogEntry['outcome'];
      if (event === 'client-gone' || res.destroyed) outcome = 'none';
      else if (!res.headersSent) {
        outcome = event.startsWith('timeout') ? 504 : 502;
        fail(res, outcome, `${outcome === 504 ? 'upstream timeout' : 'upstream error'}: ${err.message}`);
      } else if (declaredLength) {
        // The length promised cannot be kept: end what was sent and close the connection (a FIN once
        // the bytes are out, not a reset), so the client sees a short body rather than waiting.
        // (The socket is taken first: once the response has finished, the server detaches it.)
        outcome = 'closed';
        const socket = res.socket;
        res.end();
        socket?.end();
      } else {
        // A chunked body: end it cleanly.
        outcome = 'ended';
        res.end();
      }
      safeLog({ url, event, outcome, message: err.message });
      up.destroy();
      upRes?.destroy();
      sink?.destroy();
    };

    const up: ClientRequest = httpRequest({ hostname: upstream.hostname, port: upstream.port || 80, method, path: url, headers });
    let headersTimer: NodeJS.Timeout | null = null;
    up.on('socket', (socket) => {
      if (!socket.connecting) return;
      const connectTimer = timer(timeouts.connect, 'timeout-connect', 'no connection to the upstream');
      socket.once('connect', () => clear(connectTimer));
    });
    // Counted from when the request is out, so a slow client upload is not the upstream's fault.
    up.on('finish', () => {
      if (!settled && upRes === null) headersTimer = timer(timeouts.headers, 'timeout-headers', 'no response headers from the upstream');
    });
    // Once the response has come, its body stream reports the upstream's failures (through `pipeline`,
    // which names the stage that failed); the request's own error would race it.
    up.on('error', (err) => {
      if (upRes === null) finish(err, 'upstream-error');
    });
    pipeline(req, up, (err) => {
      if (!err) return;
      // The client's request body failed (it went away mid-upload): that is the client's doing. An
      // error of `up` itself has been handled by its own listener above.
      if (req.errored !== null) finish(new ExchangeAbort('client-gone', `the client's request failed: ${err.message}`), 'client-gone');
      up.destroy();
    });
    res.on('close', () => {
      // The client went away (or the response was finished): nothing more to send, stop the upstream.
      if (!res.writableEnded) finish(new ExchangeAbort('client-gone', 'the client closed the connection'), 'client-gone');
      else clearAll();
    });

    up.on('response', (r) => {
      upRes = r;
      clear(headersTimer);
      if (settled) {
        r.destroy();
        return;
      }
      const decision = decide(method, r);
      try {
        options.onResponse?.({ url, rewritten: decision.rewrite, ...(decision.rewrite ? {} : { reason: decision.reason }) });
      } catch {
        // (a callback for logs and tests)
      }
      const status = r.statusCode ?? 502;
      const outHeaders: OutgoingHttpHeaders = decision.rewrite
        ? // The body changes: its length and coding no longer hold.
          forwardHeaders(r.headers, ['content-length', 'content-encoding', 'content-md5', 'etag'])
        : forwardHeaders(r.headers);
      declaredLength = outHeaders['content-length'] !== undefined;

      // The idle timer runs while the proxy reads the body, and stops while it holds the upstream back.
      let idleTimer: NodeJS.Timeout | null = null;
      const arm = (): void => {
        if (settled) return;
        // (refresh: one timer per exchange, not one per chunk)
        if (idleTimer !== null && timers.has(idleTimer)) idleTimer.refresh();
        else idleTimer = timer(timeouts.idle, 'timeout-idle', 'the upstream body stalled');
      };
      const disarm = (): void => {
        clear(idleTimer);
        idleTimer = null;
      };
      r.on('data', arm);
      r.on('resume', arm);
      r.on('pause', disarm);
      r.on('end', disarm);
      arm();

      // Which stage failed first names the failure (pipeline reports only the error).
      let event: ProxyLogEntry['event'] | null = null;
      const tag = (s: NodeJS.ReadableStream | NodeJS.WritableStream, e: ProxyLogEntry['event']) =>
        (s as NodeJS.EventEmitter).on('error', () => {
          event ??= e;
        });
      tag(r, 'upstream-error');

      // Headers go out with the first byte of the body (or at its end), so that a body that fails
      // before giving any byte still gets a 502 or 504 rather than a cut 200.
      const start = (): void => {
        if (!res.headersSent) res.writeHead(status, r.statusMessage, outHeaders);
      };
      sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          start();
          if (res.write(chunk)) done();
          else res.once('drain', () => done());
        },
        final(done) {
          start();
          res.end();
          done();
        },
      });

      const stages: (NodeJS.ReadableStream | NodeJS.WritableStream | Transform)[] = [r];
      if (decision.rewrite) {
        if (decision.decoder !== null) {
          const d = decision.decoder();
          tag(d, 'decode-error');
          stages.push(d);
        }
        const contentType = r.headers['content-type'];
        const rw = rewriteTransform(makeRewriter(), {
          maxBufferedBytes: bound,
          // The body's encoding is sniffed with the upstream's charset (the header goes out unchanged).
          ...(contentType === undefined ? {} : { contentType }),
          onDegraded: (info) =>
            safeLog({ url, event: 'degraded', outcome: 'continued', message: `a token of more than ${bound} characters (${info.held} held): the rest of the page passes through unrewritten` }),
        });
        tag(rw, 'rewrite-error');
        stages.push(rw);
      }
      stages.push(sink);
      pipeline(stages as [NodeJS.ReadableStream, ...NodeJS.WritableStream[]], (err) => {
        if (err) finish(err, event ?? 'upstream-error');
        else clearAll();
      });
    });
  }
}

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.destroyed || res.writableEnded) return;
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(`${message}\n`);
}
