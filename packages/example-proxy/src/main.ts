#!/usr/bin/env node
/**
 * Run the example proxy: `sluice-example-proxy --upstream http://127.0.0.1:8080 [--port 8081]`.
 * It listens on 127.0.0.1 only.
 */
import { createProxy } from './proxy.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const upstream = arg('--upstream');
if (upstream === undefined) {
  console.error('usage: sluice-example-proxy --upstream http://127.0.0.1:8080 [--port 8081]');
  process.exit(2);
}
const port = Number(arg('--port') ?? 8081);
const server = createProxy({ upstream });
server.listen(port, '127.0.0.1', () => console.error(`sluice example proxy on http://127.0.0.1:${port} -> ${upstream}`));
