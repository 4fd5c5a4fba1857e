/** Shared inputs for the adapter suites: the corpus pages and a few helpers. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NodeType, parse, serialize, toTestFormat, type Document, type Element, type Node } from '@sluice/dom';

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

/**
 * A tree of objects (parse5's, hast's) as plain data: an iterative deep copy (pages nest deep enough to
 * matter for a recursive one in a test too) that leaves out undefined values and each property `drop`
 * names.
 */
export function plainCopy(node: unknown, drop: (key: string) => boolean): unknown {
  const out = { value: undefined as unknown };
  const work: [unknown, Record<string | number, unknown>, string | number][] = [[node, out as Record<string, unknown>, 'value']];
  while (work.length > 0) {
    const [from, into, key] = work.pop()!;
    if (from === null || typeof from !== 'object') {
      into[key] = from;
      continue;
    }
    const copy: Record<string | number, unknown> = Array.isArray(from) ? ([] as unknown as Record<number, unknown>) : {};
    into[key] = copy;
    for (const [k, v] of Object.entries(from)) {
      if (v === undefined || drop(k)) continue;
      work.push([v, copy, k]);
    }
  }
  return out.value;
}

/**
 * The elements below `root` in tree order (iterative). Template contents are not descendants, as in the
 * DOM, unless `templateContents` (then a template's contents follow its children).
 */
export function elementsOf(root: Node, templateContents = false): Element[] {
  const out: Element[] = [];
  const walk: Node[] = [root];
  while (walk.length > 0) {
    const n = walk.pop()!;
    if (n !== root && n.nodeType === NodeType.ELEMENT_NODE) out.push(n as Element);
    if (templateContents && n.nodeType === NodeType.ELEMENT_NODE && 'content' in n) walk.push((n as unknown as { content: Node }).content);
    const children: Node[] = [];
    for (let c = n.firstChild; c !== null; c = c.nextSibling) children.push(c);
    for (let i = children.length - 1; i >= 0; i--) walk.push(children[i]!);
  }
  return out;
}
