/**
 * End to end: an upstream server and the example proxy on 127.0.0.1, responses checked with fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { createProxy, DEFAULT_BANNER } from '../../packages/example-proxy/src/index.js';
import { close, listen, upstreamServer } from './helpers.js';

const PAGE = '<!DOCTYPE html><html><head><link rel=stylesheet href="http://cdn.example/a.css"></head>' +
  '<body><p>Hello <a href="http://example.com/x?a=1&amp;b=2">plain</a> <a href="https://example.com/">secure</a>' +
  ' <a HREF=HTTP://example.com/UP>upper</a> <a href="/rel">rel</a> http://not-a-link</p></body></html>\n';
const REWRITTEN = '<!DOCTYPE html><html><head><link rel=stylesheet href="https://cdn.example/a.css"></head>' +
  '<body><p>Hello <a href="https://example.com/x?a=1&amp;b=2">plain</a> <a href="https://example.com/">secure</a>' +
  ` <a href="https://example.com/UP">upper</a> <a href="/rel">rel</a> http://not-a-link</p>${DEFAULT_BANNER}</body></html>\n`;

let releaseSecondHalf: () => void = () => {};

// iconv-lite makes the test data; it is a devDependency of @sluice/encoding.
const iconv = createRequire(new URL('../../packages/encoding/package.json', import.meta.url))('iconv-lite') as {
  encode(text: string, encoding: string): Buffer;
};
/** A windows-1252 page (with 0x81, which no character has) and what the proxy makes of it. */
const cp1252Page = (rewritten: boolean): Buffer =>
  Buffer.concat([
    iconv.encode(`<!DOCTYPE html><title>Café “€”</title><p title="naïve">Text — ${rewritten ? '<a href="https://e.x/é">' : '<a href="http://e.x/é">'}é</a> `, 'windows-1252'),
    Buffer.from([0x81, 0x8d]),
    iconv.encode(` <a href="/rel">rel</a>${rewritten ? DEFAULT_BANNER : ''}</body></html>`, 'windows-1252'),
  ]);
/** A Shift_JIS page declared by <meta charset> only (with a malformed pair), and the proxy's result. */
const sjisPage = (rewritten: boolean): Buffer =>
  Buffer.concat([
    iconv.encode(`<!DOCTYPE html><html><head><meta charset="shift_jis"><title>日本語のページ</title></head><body><p title="表示">ソース ${rewritten ? '<a href="https://e.x/日本">' : '<a href="http://e.x/日本">'}リンク</a> `, 'shift_jis'),
    Buffer.from([0x81, 0x3c, 0x2f, 0x70, 0x3e, 0xa0]),
    iconv.encode(` ｶﾀｶﾅ${rewritten ? DEFAULT_BANNER : ''}</body></html>`, 'shift_jis'),
  ]);
/** UTF-16LE with a BOM, and what the proxy makes of it: rewritten in UTF-16LE, BOM kept. */
const utf16Page = (rewritten: boolean): Buffer =>
  // (The <p> is still open where the document ends: the banner, the body's last child, comes after an
  // end tag for it — as a browser places it: alignment.ts.)
  Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(`<p title="日本">é 😀 <a href="${rewritten ? 'https' : 'http'}://e.x/é">x</a>${rewritten ? `</p>${DEFAULT_BANNER}` : ''}`, 'utf-16le')]);
/** UTF-16BE without a BOM (only the HTTP charset says), with a lone surrogate, sent in odd-sized pieces. */
const utf16bePage = (rewritten: boolean): Buffer =>
  Buffer.concat([
    iconv.encode(`<!DOCTYPE html><body><p>日本語 😀 <a href="${rewritten ? 'https' : 'http'}://e.x/">x</a> `, 'utf-16be'),
    Buffer.from([0xd8, 0x3d, 0x00, 0x21]), // a lead surrogate, then "!": passed as it came
    iconv.encode(`${rewritten ? DEFAULT_BANNER : ''}</body>`, 'utf-16be'),
  ]);
/** ISO-2022-JP (not ASCII-compatible; the rewriter refuses it): passed through. */
const iso2022jpPage = Buffer.concat([Buffer.from('<p><a href="http://e.x/">'), Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42]), Buffer.from('</a>')]);

const upstream = upstreamServer({
  '/page': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-upstream': 'yes', 'set-cookie': ['a=1', 'b=2'] });
    res.end(PAGE);
  },
  '/length': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(PAGE) });
    res.end(PAGE);
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8', 'content-encoding': 'gzip' });
    res.end(gzipSync(PAGE));
  },
  '/deflate': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' });
    res.end(deflateSync(PAGE));
  },
  '/br': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' });
    res.end(brotliCompressSync(PAGE));
  },
  '/unknown-coding': (_req, res) => {
    const body = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 255]);
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'x-sluice-test', 'content-length': body.length });
    res.end(body);
  },
  '/css': (_req, res) => {
    const css = 'a { background: url(http://example.com/i.png) } /* </body> */';
    res.writeHead(200, { 'content-type': 'text/css', 'content-length': Buffer.byteLength(css) });
    res.end(css);
  },
  '/latin1': (_req, res) => {
    const body = Buffer.from('<a href="http://e.x/">caf\xe9</a></body>', 'latin1');
    res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1', 'content-length': body.length });
    res.end(body);
  },
  '/cp1252': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
    const body = cp1252Page(false);
    for (let i = 0; i < body.length; i += 7) res.write(body.subarray(i, i + 7));
    res.end();
  },
  '/sjis': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    // The head in the first write (the proxy prescans the first chunk that comes), the rest in small pieces.
    const body = sjisPage(false);
    res.write(body.subarray(0, 120));
    for (let i = 120; i < body.length; i += 5) res.write(body.subarray(i, i + 5));
    res.end();
  },
  '/utf16': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(utf16Page(false));
  },
  '/utf16be': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=UTF-16BE' });
    const body = utf16bePage(false);
    for (let i = 0; i < body.length; i += 7) res.write(body.subarray(i, i + 7)); // cuts code units and the pair
    res.end();
  },
  '/iso2022jp': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=ISO-2022-JP' });
    res.end(iso2022jpPage);
  },
  '/nobody': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<title>t</title><a href=http://e.x/>x</a>');
  },
  '/slow': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html><body><a href="http://e.x/1">first</a>');
    const gate = new Promise<void>((r) => (releaseSecondHalf = r));
    void gate.then(() => res.end('<a href="http://e.x/2">second</a></body></html>'));
  },
  '/echo': async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    res.writeHead(201, { 'content-type': 'text/plain', 'x-method': req.method ?? '', 'x-host': req.headers.host ?? '', 'x-conn': req.headers['x-conn-test'] ?? '' });
    res.end(Buffer.concat(chunks));
  },
  '/not-modified': (_req, res) => {
    res.writeHead(304, { etag: '"v1"' });
    res.end();
  },
  '/utf8': (_req, res) => {
    // Multi-byte characters cut across writes.
    const body = Buffer.from('<p title="é">日本語 😀 <a href="http://e.x/é">é</a></p>');
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    for (let i = 0; i < body.length; i += 3) res.write(body.subarray(i, i + 3));
    res.end();
  },
});

function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const seen: { url: string; rewritten: boolean; reason?: string }[] = [];
let upstreamUrl = '';
let proxyUrl = '';
const proxy = () => createProxy({ upstream: upstreamUrl, onResponse: (i) => seen.push(i) });
let proxyServer: ReturnType<typeof createProxy>;

beforeAll(async () => {
  upstreamUrl = await listen(upstream);
  proxyServer = proxy();
  proxyUrl = await listen(proxyServer);
});

afterAll(async () => {
  await close(proxyServer);
  await close(upstream);
});

describe('example proxy', () => {
  it('rewrites http: links to https: and puts the banner before </body>', async () => {
    const res = await fetch(`${proxyUrl}/page`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.text()).toBe(REWRITTEN);
  });

  it('drops content-length when the body changes', async () => {
    const res = await fetch(`${proxyUrl}/length`);
    expect(res.headers.get('content-length')).toBeNull();
    expect(await res.text()).toBe(REWRITTEN);
  });

  for (const coding of ['gzip', 'deflate', 'br']) {
    it(`decodes ${coding}, rewrites, and sends the result without a content coding`, async () => {
      const res = await fetch(`${proxyUrl}/${coding}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.text()).toBe(REWRITTEN);
    });
  }

  it('leaves a body in a coding it cannot decode untouched, headers included', async () => {
    // (node:http, which hands over the bytes as they came, whatever their coding)
    const raw = await rawGet(`${proxyUrl}/unknown-coding`);
    expect(raw.headers['content-encoding']).toBe('x-sluice-test');
    expect(raw.headers['content-length']).toBe('8');
    expect([...raw.body]).toEqual([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 255]);
    expect(seen.find((s) => s.url === '/unknown-coding')).toEqual({ url: '/unknown-coding', rewritten: false, reason: 'content coding x-sluice-test' });
  });

  it('leaves other content types untouched', async () => {
    const res = await fetch(`${proxyUrl}/css`);
    expect(res.headers.get('content-length')).toBe('61');
    expect(await res.text()).toBe('a { background: url(http://example.com/i.png) } /* </body> */');
  });

  it('rewrites HTML in its own charset (ISO-8859-1 is windows-1252), bytes kept', async () => {
    const res = await fetch(`${proxyUrl}/latin1`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=ISO-8859-1');
    expect(Buffer.from(await res.arrayBuffer()).toString('latin1')).toBe(`<a href="https://e.x/">caf\xe9</a>${DEFAULT_BANNER}</body>`);
  });

  it('a windows-1252 page with only an HTTP charset comes out byte-exact outside what changed', async () => {
    const res = await fetch(`${proxyUrl}/cp1252`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=windows-1252');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(cp1252Page(true));
  });

  it('a Shift_JIS page with a <meta charset> (the rest sent in small pieces) comes out byte-exact outside what changed', async () => {
    const res = await fetch(`${proxyUrl}/sjis`);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(sjisPage(true));
  });

  it('a UTF-16LE page with a BOM is rewritten in UTF-16LE, BOM kept, byte-exact outside what changed', async () => {
    const res = await fetch(`${proxyUrl}/utf16`);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(utf16Page(true));
  });

  it('a UTF-16BE page with only an HTTP charset (sent in 7-byte pieces, a lone surrogate in it) is rewritten in UTF-16BE', async () => {
    const res = await fetch(`${proxyUrl}/utf16be`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-16BE');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(utf16bePage(true));
  });

  it('ISO-2022-JP passes through untouched (the rewriter refuses it: not ASCII-compatible)', async () => {
    const res = await fetch(`${proxyUrl}/iso2022jp`);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(iso2022jpPage);
  });

  it('a document without a <body> tag gets the banner at the end of its implied body', async () => {
    const res = await fetch(`${proxyUrl}/nobody`);
    expect(await res.text()).toBe(`<title>t</title><a href="https://e.x/">x</a>${DEFAULT_BANNER}`);
  });

  it('keeps UTF-8 intact across chunk boundaries', async () => {
    const res = await fetch(`${proxyUrl}/utf8`);
    expect(await res.text()).toBe(`<p title="é">日本語 😀 <a href="https://e.x/é">é</a></p>${DEFAULT_BANNER}`);
  });

  it('streams: the first part arrives before the upstream has sent the rest', async () => {
    const res = await fetch(`${proxyUrl}/slow`);
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let got = '';
    while (!got.includes('first</a>')) {
      const { value, done } = await reader.read();
      if (done) break;
      got += dec.decode(value, { stream: true });
    }
    expect(got).toBe('<html><body><a href="https://e.x/1">first</a>');
    releaseSecondHalf();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      got += dec.decode(value, { stream: true });
    }
    expect(got).toBe(`<html><body><a href="https://e.x/1">first</a><a href="https://e.x/2">second</a>${DEFAULT_BANNER}</body></html>`);
  });

  it('forwards methods, bodies and status, rewrites Host, drops hop-by-hop headers', async () => {
    const res = await fetch(`${proxyUrl}/echo`, { method: 'POST', body: 'payload' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-method')).toBe('POST');
    expect(res.headers.get('x-host')).toBe(new URL(upstreamUrl).host);
    expect(await res.text()).toBe('payload');
    // fetch will not send a Connection header; node:http will.
    const raw = await rawGet(`${proxyUrl}/echo`, { connection: 'keep-alive, x-conn-test', 'x-conn-test': 'hop' });
    expect(raw.headers['x-conn']).toBe('');
  });

  it('passes bodiless responses through', async () => {
    const res = await fetch(`${proxyUrl}/not-modified`);
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe('"v1"');
    const head = await fetch(`${proxyUrl}/page`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 502 when the upstream is unreachable', async () => {
    const dead = createProxy({ upstream: 'http://127.0.0.1:9' });
    const url = await listen(dead);
    try {
      const res = await fetch(`${url}/x`);
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/upstream error/);
    } finally {
      await close(dead);
    }
  });
});
