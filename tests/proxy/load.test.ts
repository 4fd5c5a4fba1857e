/**
 * A bounded load test of the example proxy (the fuller run with numbers is bench/proxy-load.mjs): a few
 * concurrent clients for a fixed short time, every body checked.
 */
import { describe, expect, it } from 'vitest';
import { runLoadTest } from '../../packages/example-proxy/src/index.js';

const page = (n: number) =>
  `<!DOCTYPE html><html><head><title>Page ${n}</title></head><body>` +
  Array.from({ length: 50 }, (_, i) => `<p>Item ${i} <a href="http://example.com/${n}/${i}">link</a> <a href="/rel/${i}">rel</a></p>`).join('\n') +
  '</body></html>';

describe('proxy under load', () => {
  it('serves every response right, with several clients at once', async () => {
    const result = await runLoadTest({ clients: 6, durationMs: 1500, maxRequests: 2000, pages: [page(1), page(2), page(3)] });
    expect(result.firstError).toBeNull();
    expect(result.errors).toBe(0);
    expect(result.mismatches).toBe(0);
    expect(result.requests).toBeGreaterThan(20);
    expect(result.seconds).toBeLessThan(10);
  });
});
