import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// Tests run against the TypeScript sources, not dist/: each workspace package name is aliased to its src/.
const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@sluice\/encoding$/, replacement: src('encoding') },
      { find: /^@sluice\/selectors$/, replacement: src('selectors') },
      { find: /^@sluice\/tokenizer$/, replacement: src('tokenizer') },
      { find: /^@sluice\/tree-builder$/, replacement: src('tree-builder') },
      { find: /^@sluice\/dom$/, replacement: src('dom') },
      { find: /^@sluice\/rewriter$/, replacement: src('rewriter') },
      { find: /^@sluice\/streams$/, replacement: src('streams') },
      { find: /^@sluice\/example-proxy$/, replacement: src('example-proxy') },
      { find: /^sluice$/, replacement: src('sluice') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine, one — every file in turn,
    // while the browser and command suites spend much of their time waiting on Chromium and child
    // processes. Two workers there took the full run (CI seed) from 1,013 s to 684 s on 2026-11-27.
    maxWorkers: 2,
    reporters: ['default', './scripts/summary-reporter.ts'],
    setupFiles: ['./tests/setup/fast-check.ts', './tests/setup/rewriter-checks.ts'],
  },
});
