/** Which upstream responses the proxy rewrites, and how it undoes their content coding. */
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { parseContentType } from './headers.js';

/** What to do with an upstream response. */
export type Decision =
  | { readonly rewrite: false; readonly reason: string }
  | { readonly rewrite: true; readonly decoder: (() => Transform) | null };

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
};

/**
 * Rewrite HTML (`text/html`) in UTF-8 (or with no charset label, taken as UTF-8), whose content coding
 * the proxy can undo (none, gzip, deflate, br). Anything else — other types, other charsets, codings it
 * cannot decode (zstd, stacked codings), bodiless responses — passes through untouched.
 */
export function decide(method: string, res: IncomingMessage): Decision {
  const status = res.statusCode ?? 0;
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) return { rewrite: false, reason: 'no body' };
  const { type, charset } = parseContentType(res.headers['content-type']);
  if (type !== 'text/html') return { rewrite: false, reason: `content type ${type || '(none)'}` };
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') return { rewrite: false, reason: `charset ${charset}` };
  const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return { rewrite: true, decoder: null };
  const decoder = DECODERS[coding];
  if (decoder === undefined) return { rewrite: false, reason: `content coding ${coding}` };
  return { rewrite: true, decoder };
}
