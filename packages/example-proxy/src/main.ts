#!/usr/bin/env node
/**
 * Run the example proxy: `sluice-example-proxy --upstream http://127.0.0.1:8080 [--port 8081]
 * [--connect-timeout ms] [--headers-timeout ms] [--idle-timeout ms] [--max-buffered-bytes n]`.
 * It listens on 127.0.0.1 only.
 */
import { createProxy } from './proxy.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** A positive number option, or undefined when absent (the proxy's default then applies). */
function positive(name: string): number | undefined {
  const v = arg(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(n > 0)) {
    console.error(`sluice-example-proxy: ${name} must be a positive number, got ${v}`);
    process.exit(2);
  }
  return n;
}

const upstream = arg('--upstream');
if (upstream === undefined) {
  console.error('usage: sluice-example-proxy --upstream http://127.0.0.1:8080 [--port 8081] [--connect-timeout ms] [--headers-timeout ms] [--idle-timeout ms] [--max-buffered-bytes n]');
  process.exit(2);
}
const port = Number(arg('--port') ?? 8081);
const timeouts = { connect: positive('--connect-timeout'), headers: positive('--headers-timeout'), idle: positive('--idle-timeout') };
const maxBufferedBytes = positive('--max-buffered-bytes');
const server = createProxy({
  upstream,
  timeouts,
  ...(maxBufferedBytes === undefined ? {} : { maxBufferedBytes }),
});
server.listen(port, '127.0.0.1', () => console.error(`sluice example proxy on http://127.0.0.1:${port} -> ${upstream}`));
