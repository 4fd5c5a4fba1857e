/**
 * `toTestFormat`: the tree dump of the html5lib tree-construction tests (html5lib-tests
 * `tree-construction/README.md`), the `#document` block of a `.dat` test.
 */
import { NS, type ElementAttribute } from '@sluice/tree-builder';
import type { Comment, Text } from './character-data.js';
import type { DocumentType } from './document-type.js';
import type { Element } from './element.js';
import { HTMLTemplateElement } from './element.js';
import { type Node, NodeType } from './node.js';

/**
 * Dump `node` in the html5lib tree-construction test format: one line per node, each starting with `| `
 * and two spaces per level; the lines joined with `\n` (no trailing newline), so the result can be
 * compared with a test's `#document` block as a string.
 *
 * - elements: `<div>`, `<svg path>`, `<math mi>` (a namespace designator for SVG and MathML);
 * - their attributes on the following lines, one level deeper, sorted by UTF-16 code units of the
 *   attribute name string: `class="x"`, `xlink href="y"` (designators for XLink, XML, XMLNS);
 * - text: `"data"` (newlines not escaped); comments: `<!-- data -->`;
 * - doctypes: `<!DOCTYPE name>`, or `<!DOCTYPE name "public" "system">` when either identifier is non-empty;
 * - a template's contents: a `content` line one level below the template, the contents below it.
 *
 * A Document or DocumentFragment is dumped as its children; any other node as itself and its subtree.
 * Iterative (explicit stack), so any depth works; the output itself grows with depth², as the format
 * indents every line.
 */
export function toTestFormat(node: Node): string {
  const lines: string[] = [];
  // The explicit stack: a node and its depth, or a `content` marker (node null) for template contents.
  const nodes: (Node | null)[] = [];
  const depths: number[] = [];
  const t = node.nodeType;
  if (t === NodeType.DOCUMENT_NODE || t === NodeType.DOCUMENT_FRAGMENT_NODE) pushChildren(node, 0, nodes, depths);
  else {
    nodes.push(node);
    depths.push(0);
  }
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    const depth = depths.pop()!;
    const indent = '| ' + '  '.repeat(depth);
    if (n === null) {
      lines.push(indent + 'content');
      continue;
    }
    switch (n.nodeType) {
      case NodeType.ELEMENT_NODE: {
        const el = n as Element;
        lines.push(`${indent}<${elementNameString(el)}>`);
        const attrs = el._attrs;
        if (attrs.length > 0) {
          const attrIndent = indent + '  ';
          const named = attrs.map((a) => [attributeNameString(a), a.value] as const);
          named.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          for (const [name, value] of named) lines.push(`${attrIndent}${name}="${value}"`);
        }
        // Pushed in reverse of output order: the element's own children, then its template contents.
        pushChildren(el, depth + 1, nodes, depths);
        if (el instanceof HTMLTemplateElement) {
          pushChildren(el.content, depth + 2, nodes, depths);
          nodes.push(null);
          depths.push(depth + 1);
        }
        break;
      }
      case NodeType.TEXT_NODE:
        lines.push(`${indent}"${(n as Text).data}"`);
        break;
      case NodeType.COMMENT_NODE:
        lines.push(`${indent}<!-- ${(n as Comment).data} -->`);
        break;
      case NodeType.DOCUMENT_TYPE_NODE: {
        const d = n as DocumentType;
        lines.push(
          d.publicId !== '' || d.systemId !== ''
            ? `${indent}<!DOCTYPE ${d.name} "${d.publicId}" "${d.systemId}">`
            : `${indent}<!DOCTYPE ${d.name}>`,
        );
        break;
      }
      case NodeType.PROCESSING_INSTRUCTION_NODE: {
        const pi = n as unknown as { target: string; data: string };
        lines.push(`${indent}<?${pi.target} ${pi.data}>`);
        break;
      }
      default:
        // Documents and fragments nested in a tree cannot happen; dump their children in place.
        pushChildren(n, depth, nodes, depths);
    }
  }
  return lines.join('\n');
}

/** Push `parent`'s children so that the first child is popped first. */
function pushChildren(parent: Node, depth: number, nodes: (Node | null)[], depths: number[]): void {
  for (let c = parent._last; c !== null; c = c._prev) {
    nodes.push(c);
    depths.push(depth);
  }
}

/** The README's "tag name string": the local name, after `svg ` or `math ` for those namespaces. */
function elementNameString(el: Element): string {
  const ns = el.namespaceURI;
  if (ns === NS.HTML) return el.localName;
  if (ns === NS.SVG) return `svg ${el.localName}`;
  if (ns === NS.MATHML) return `math ${el.localName}`;
  return el.prefix === null ? el.localName : `${el.prefix}:${el.localName}`;
}

/** The README's "attribute name string": the local name, after `xlink `, `xml ` or `xmlns ` for those namespaces. */
function attributeNameString(a: ElementAttribute): string {
  switch (a.namespace) {
    case null:
      return a.localName;
    case NS.XLINK:
      return `xlink ${a.localName}`;
    case NS.XML:
      return `xml ${a.localName}`;
    case NS.XMLNS:
      return `xmlns ${a.localName}`;
    default:
      return a.name;
  }
}
