/**
 * No unhandled rejections: strict-scenario.mjs runs the proxy through every failure it handles (many at
 * once) in a child process under `node --unhandled-rejections=strict`, where one unhandled rejection
 * ends the process with an error. It runs the built packages (`node scripts/setup.mjs`, which `npm test`
 * runs first).
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..', '..', 'packages', 'example-proxy');

describe('proxy under --unhandled-rejections=strict', () => {
  it('a scenario of failing exchanges exits 0 with no unhandled rejection', async () => {
    // A stale build would test old code: say so rather than pass or fail for the wrong reason.
    for (const f of ['proxy', 'rewrite-transform', 'decide']) {
      const src = statSync(join(pkg, 'src', `${f}.ts`)).mtimeMs;
      const built = statSync(join(pkg, 'dist', `${f}.js`), { throwIfNoEntry: false })?.mtimeMs ?? 0;
      expect(built >= src, `packages/example-proxy/dist/${f}.js is older than its source: run node scripts/setup.mjs`).toBe(true);
    }
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--unhandled-rejections=strict', join(here, 'strict-scenario.mjs')],
        { timeout: 40_000, killSignal: 'SIGKILL' },
        (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr }),
      );
    });
    expect(stderr).not.toMatch(/Unhandled/i);
    expect({ code, stderr: stderr.slice(0, 2000) }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(stdout).toMatch(/strict-scenario: ok/);
  }, 45_000);
});
