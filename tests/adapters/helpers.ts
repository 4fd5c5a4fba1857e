/** Shared inputs for the adapter suites: the corpus pages and a few helpers. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, serialize, toTestFormat, type Document } from '@sluice/dom';

const dir = join(import.meta.dirname, '../../bench/node_modules/htmlparser-benchmark/files');

/** The 258 corpus pages, read as UTF-8. */
export function corpus(): { name: string; html: string }[] {
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, html: readFileSync(join(dir, name), 'utf8') }));
}

/** The tree sluice builds from `html`, in the html5lib test format. */
export function treeOf(html: string, options?: { scripting?: boolean }): string {
  return toTestFormat(parse(html, options));
}

/**
 * What a serializer's output must reparse to: the tree sluice's own serializer's output reparses to
 * (a doctype serializes as `<!DOCTYPE name>` by HTML §13.3, so public and system identifiers do not
 * survive any serializer; nor does every tree survive serializing, so the reference is the reparse).
 */
export function reference(doc: Document): string {
  return treeOf(serialize(doc));
}

/** `depth` nested `<div>`s, as markup. */
export function nested(depth: number): string {
  return '<div>'.repeat(depth);
}
