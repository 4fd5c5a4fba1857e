/**
 * The workspace as the packaging tests see it: the published packages (every `packages/*` whose manifest
 * is not `private`), their manifests, and the build (`tsc -b`, then the browser bundle) run the way
 * `scripts/setup.mjs` runs it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  license?: string;
  type?: string;
  engines?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  files?: string[];
  dependencies?: Record<string, string>;
}

export interface WorkspacePackage {
  /** The folder name under packages/. */
  folder: string;
  dir: string;
  manifest: Manifest;
}

export function packages(): WorkspacePackage[] {
  const dir = join(root, 'packages');
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ folder: entry.name, dir: join(dir, entry.name), manifest: JSON.parse(readFileSync(join(dir, entry.name, 'package.json'), 'utf8')) as Manifest }));
}

export function publishedPackages(): WorkspacePackage[] {
  return packages().filter((p) => p.manifest.private !== true);
}

/** Builds every package (`tsc -b`, incremental) and the browser bundle; throws with the compiler's output on an error. */
export function build(): void {
  const run = (args: string[]) => {
    try {
      execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`);
    }
  };
  run([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b']);
  run([join(root, 'scripts', 'bundle.mjs')]);
}

/** The `types` files of a manifest's `exports`, by subpath. */
export function typesEntries(manifest: Manifest): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target === 'object' && target.types !== undefined) entries.set(subpath, target.types);
  }
  return entries;
}
