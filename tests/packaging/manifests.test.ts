/**
 * The published packages' manifests (issue 16 item 7), as a registry and a user's tools read them:
 * `exports` with `types` first (TypeScript takes the first condition that matches), `main`/`types` equal
 * to the `.` export, `engines`, the MIT license with the root's LICENSE text in the package, `files` that
 * hold the build and leave the build info out; the umbrella depends on every other published package and
 * brings the `sluice` command; the example proxy and the playground stay private.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packages, publishedPackages, root } from './workspace.js';

describe('published manifests', () => {
  const published = publishedPackages();

  it('publishes the nine stage packages and keeps the example proxy and the playground private', () => {
    expect(published.map((p) => p.manifest.name).sort()).toEqual(
      ['@sluice/cli', '@sluice/dom', '@sluice/encoding', '@sluice/rewriter', '@sluice/selectors', '@sluice/streams', '@sluice/tokenizer', '@sluice/tree-builder', 'sluice'].sort(),
    );
    const privateOnes = packages().filter((p) => p.manifest.private === true).map((p) => p.manifest.name).sort();
    expect(privateOnes).toEqual(['@sluice/example-proxy', '@sluice/playground']);
  });

  for (const { manifest, dir } of published) {
    it(`${manifest.name}: exports, types, engines, license, files`, () => {
      expect(manifest.type).toBe('module');
      expect(manifest.description ?? '').not.toBe('');
      expect(manifest.license).toBe('MIT');
      expect(manifest.engines).toEqual({ node: '>=20.19' });
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
      const exportsField = manifest.exports ?? {};
      expect(Object.keys(exportsField)).toContain('.');
      for (const [subpath, target] of Object.entries(exportsField)) {
        if (typeof target === 'string') continue;
        expect(Object.keys(target)[0], `${manifest.name} ${subpath}: types first`).toBe('types');
        expect(Object.keys(target).at(-1), `${manifest.name} ${subpath}: default last`).toBe('default');
      }
      const main = exportsField['.'] as Record<string, string>;
      expect(manifest.types).toBe(main.types);
      expect(manifest.main).toBe(main.default);
      expect(manifest.files).toEqual(expect.arrayContaining(['dist', '!dist/.tsbuildinfo', 'LICENSE']));
      for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
        if (name.startsWith('@sluice/') || name === 'sluice') expect(version, `${manifest.name} → ${name}`).toBe('workspace:*');
      }
      for (const bin of Object.values(manifest.bin ?? {})) expect(existsSync(join(dir, 'src', bin.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))), bin).toBe(true);
    });
  }

  it('sluice depends on every other published package and alone brings the sluice command', () => {
    const sluice = published.find((p) => p.manifest.name === 'sluice')!.manifest;
    expect(Object.keys(sluice.dependencies ?? {}).sort()).toEqual(published.map((p) => p.manifest.name).filter((n) => n !== 'sluice').sort());
    expect(sluice.bin).toEqual({ sluice: './dist/bin.js' });
    expect(published.filter((p) => p.manifest.bin?.sluice !== undefined).map((p) => p.manifest.name)).toEqual(['sluice']);
    expect((sluice.exports?.['./browser'] as Record<string, string>).default).toBe('./dist/browser/sluice.js');
  });
});
