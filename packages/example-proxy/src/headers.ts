/** Header handling for a reverse proxy (RFC 9110 §7.6.1: connection-specific fields are not forwarded). */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Hop-by-hop fields: they describe one connection, not the message. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Copy `headers` without hop-by-hop fields (and those the `Connection` field names), nor `drop`. */
export function forwardHeaders(headers: IncomingHttpHeaders, drop: readonly string[] = []): OutgoingHttpHeaders {
  const named = new Set<string>();
  const connection = headers.connection;
  if (typeof connection === 'string') for (const n of connection.split(',')) named.add(n.trim().toLowerCase());
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || drop.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

/** The media type and charset of a `Content-Type` value, lowercased (`text/html`, `utf-8`). */
export function parseContentType(value: string | undefined): { type: string; charset: string | null } {
  if (value === undefined) return { type: '', charset: null };
  const [type, ...params] = value.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    if (p.slice(0, eq).trim().toLowerCase() === 'charset') charset = p.slice(eq + 1).trim().replace(/^"|"$/g, '').toLowerCase();
  }
  return { type: type!.trim().toLowerCase(), charset };
}
