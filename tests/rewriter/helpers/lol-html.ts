/** html-rewriter-wasm (lol-html compiled to WebAssembly), from bench/'s dependencies, for differential tests. */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(fileURLToPath(new URL('../../../bench/package.json', import.meta.url)));

/** The subset of HTMLRewriter both implementations share. */
export interface CommonRewriter {
  on(selector: string, handlers: object): CommonRewriter;
  onDocument(handlers: object): CommonRewriter;
}

/** Run lol-html over `chunks`; returns the output. */
export async function runLolHtml(setup: (r: CommonRewriter) => void, chunks: readonly string[]): Promise<string> {
  const { HTMLRewriter } = require('html-rewriter-wasm') as {
    HTMLRewriter: new (sink: (c: Uint8Array) => void) => CommonRewriter & {
      write(c: Uint8Array): Promise<void>;
      end(): Promise<void>;
      free(): void;
    };
  };
  const dec = new TextDecoder();
  const enc = new TextEncoder();
  let out = '';
  const r = new HTMLRewriter((c) => (out += dec.decode(c, { stream: true })));
  try {
    setup(r);
    for (const c of chunks) await r.write(enc.encode(c));
    await r.end();
  } finally {
    r.free();
  }
  return out + dec.decode();
}
