#!/usr/bin/env node
// Generates packages/tokenizer/src/character-references/named-table.ts: the WHATWG named character
// reference table (HTML §13.5, "Named character references") as a serialized trie.
//
// Source: the npm packages `character-entities` (every name of the WHATWG list, which all end in ';'
// there) and `character-entities-legacy` (the names that also match without ';'), both devDependencies
// of @sluice/tokenizer. Together they are the list's 2,231 entries.
//
// Usage (from the repository root):  node packages/tokenizer/scripts/generate-named-character-references.mjs
// The test suite imports `renderNamedTable()` from this file and checks the committed output is current.
//
// Serialization (decoded once at module load by named-trie.ts):
//   - nodes are numbered breadth-first from the root (0); the children of a node are consecutive nodes,
//     sorted by code unit, so a node's children are the range that follows its predecessors' children;
//   - SHAPE has one character per node: 0x30 + child count, + 53 if the path to the node spells a name;
//   - LABELS has one character per non-root node (node i at index i - 1): the code unit of its edge;
//   - VALUES lists the replacement text of each name node, in node order.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { characterEntities } from 'character-entities';
import { characterEntitiesLegacy } from 'character-entities-legacy';

const require = createRequire(import.meta.url);
const OUTPUT = fileURLToPath(new URL('../src/character-references/named-table.ts', import.meta.url));
/** Added to a name node's child count in SHAPE. Larger than any child count (the root has 52). */
const TERMINAL = 53;
const SHAPE_BASE = 0x30;

/** Every entry of the WHATWG table: [name as written after '&', replacement text]. */
export function namedReferenceEntries() {
  const entries = Object.keys(characterEntities).map((name) => [`${name};`, characterEntities[name]]);
  for (const name of characterEntitiesLegacy) {
    if (!(name in characterEntities)) throw new Error(`legacy name ${name} has no value`);
    entries.push([name, characterEntities[name]]);
  }
  return entries;
}

/** Builds the trie and returns the source text of named-table.ts. */
export function renderNamedTable() {
  const entries = namedReferenceEntries();
  const root = { children: new Map(), value: null };
  for (const [name, value] of entries) {
    // named-trie.ts packs a match's length into 6 bits.
    if (name.length >= 64) throw new Error(`name ${name} is too long`);
    let node = root;
    for (let i = 0; i < name.length; i++) {
      const code = name.charCodeAt(i);
      let child = node.children.get(code);
      if (!child) node.children.set(code, (child = { children: new Map(), value: null }));
      node = child;
    }
    if (node.value !== null) throw new Error(`duplicate name ${name}`);
    node.value = value;
  }

  let shape = '';
  let labels = '';
  const values = [];
  const queue = [[root, -1]];
  for (let head = 0; head < queue.length; head++) {
    const [node, label] = queue[head];
    const children = [...node.children].sort((a, b) => a[0] - b[0]);
    if (children.length >= TERMINAL) throw new Error('too many children for the SHAPE encoding');
    shape += String.fromCharCode(SHAPE_BASE + children.length + (node.value === null ? 0 : TERMINAL));
    if (label >= 0) labels += String.fromCharCode(label);
    if (node.value !== null) values.push(node.value);
    for (const [code, child] of children) queue.push([child, code]);
  }

  const pkg = (name) => `${name}@${require(`${name}/package.json`).version}`;
  return `// GENERATED FILE — do not edit. The WHATWG named character reference table (HTML §13.5) as a trie.
// Source: npm ${pkg('character-entities')} (names with ';') and ${pkg('character-entities-legacy')}
// (names also matched without ';'): ${entries.length} names, ${queue.length} trie nodes.
// Regenerate: node packages/tokenizer/scripts/generate-named-character-references.mjs
// The format is described in that script; named-trie.ts decodes it.

/** One character per trie node, breadth-first: 0x${SHAPE_BASE.toString(16)} + child count, + ${TERMINAL} if the node ends a name. */
export const SHAPE = ${quote(shape)};

/** The edge label (a UTF-16 code unit) of each non-root node, breadth-first. */
export const LABELS = ${quote(labels)};

/** The replacement text of each name-ending node, breadth-first. */
export const VALUES: readonly string[] = [
${chunk(values.map(quote), 12).map((line) => `  ${line.join(', ')},`).join('\n')}
];
`;
}

/** A double-quoted TypeScript string literal using only printable ASCII. */
function quote(text) {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) out += `\\${text[i]}`;
    else if (code >= 0x20 && code < 0x7f) out += text[i];
    else out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `${out}"`;
}

function chunk(items, size) {
  const rows = [];
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = renderNamedTable();
  writeFileSync(OUTPUT, source);
  console.log(`wrote ${OUTPUT} (${source.length} bytes)`);
}
