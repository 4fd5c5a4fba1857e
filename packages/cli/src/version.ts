/** The command's version: read from this package's package.json at run time (so a tarball says its own). */
import { readFileSync } from 'node:fs';

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name?: string; version?: string };
  return pkg.version ?? 'unknown';
}
