/**
 * The DOM written out piece by piece, never as one string: the html5lib test format (`toTestFormat`'s)
 * and the JSON shape of docs/cli.md. (The indented tree and the HTML serialization are `@sluice/dom`'s
 * own `indentedTreeLines` and `serializeChunks`.) Each is a generator over an explicit stack (no
 * recursion: documents nest 100,000 deep) that yields lines or pieces; the command writes them with
 * backpressure. The tests check each against `@sluice/dom`'s own function on whole pages.
 */
import { NS } from '@sluice/tree-builder';
import { HTMLTemplateElement, NodeType, type Comment, type Document, type DocumentType, type Element, type Node, type Text } from '@sluice/dom';

/** An attribute as the writers read it. */
interface AttrView {
  name: string;
  value: string;
  namespaceURI: string | null;
  prefix: string | null;
  localName: string;
}

/**
 * The element's attributes, without `el.attributes`: that getter makes (and keeps, on the element) a
 * NamedNodeMap and an Attr node per attribute, which over a whole page's elements would double the DOM's
 * memory. An HTML element's attributes are never namespaced (the parser makes them so), so names and
 * values are all there is; a foreign element's may be (`xlink:href`), so they are read as Attr nodes.
 */
function attributesOf(el: Element): AttrView[] {
  if (el.namespaceURI !== NS.HTML) {
    const attrs = el.attributes;
    const out: AttrView[] = [];
    for (let i = 0; i < attrs.length; i++) out.push(attrs.item(i)!);
    return out;
  }
  if (!el.hasAttributes()) return NONE;
  return el.getAttributeNames().map((name) => ({ name, value: el.getAttribute(name)!, namespaceURI: null, prefix: null, localName: name }));
}
const NONE: AttrView[] = [];

/** The lines of `toTestFormat(document)` (the html5lib tree-construction tests' `#document` block). */
export function* testFormatLines(doc: Node): Generator<string> {
  const nodes: (Node | null)[] = [];
  const depths: number[] = [];
  const pushChildren = (parent: Node, depth: number): void => {
    for (let c = parent.lastChild; c !== null; c = c.previousSibling) {
      nodes.push(c);
      depths.push(depth);
    }
  };
  pushChildren(doc, 0);
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    const depth = depths.pop()!;
    const indent = '| ' + '  '.repeat(depth);
    if (n === null) {
      yield indent + 'content';
      continue;
    }
    switch (n.nodeType) {
      case NodeType.ELEMENT_NODE: {
        const el = n as Element;
        const ns = el.namespaceURI;
        yield `${indent}<${ns === NS.SVG ? 'svg ' : ns === NS.MATHML ? 'math ' : ''}${el.localName}>`;
        const attrs = attributesOf(el);
        if (attrs.length > 0) {
          const named: [string, string][] = [];
          for (const a of attrs) {
            const designator = a.namespaceURI === NS.XLINK ? 'xlink ' : a.namespaceURI === NS.XML ? 'xml ' : a.namespaceURI === NS.XMLNS ? 'xmlns ' : null;
            named.push([designator === null ? a.name : designator + a.localName, a.value]);
          }
          named.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          for (const [name, value] of named) yield `${indent}  ${name}="${value}"`;
        }
        pushChildren(el, depth + 1);
        if (el instanceof HTMLTemplateElement) {
          pushChildren(el.content, depth + 2);
          nodes.push(null);
          depths.push(depth + 1);
        }
        break;
      }
      case NodeType.TEXT_NODE:
        yield `${indent}"${(n as Text).data}"`;
        break;
      case NodeType.COMMENT_NODE:
        yield `${indent}<!-- ${(n as Comment).data} -->`;
        break;
      case NodeType.DOCUMENT_TYPE_NODE: {
        const d = n as DocumentType;
        yield d.publicId !== '' || d.systemId !== '' ? `${indent}<!DOCTYPE ${d.name} "${d.publicId}" "${d.systemId}">` : `${indent}<!DOCTYPE ${d.name}>`;
        break;
      }
      default:
        yield `${indent}${n.nodeName}`;
    }
  }
}

const SHORT_NS: Record<string, string> = { [NS.HTML]: 'html', [NS.SVG]: 'svg', [NS.MATHML]: 'mathml' };

/**
 * The tree as one JSON value, in pieces (the shape is in docs/cli.md):
 * `{"type":"document","mode":…,"children":[…]}`; elements `{"type":"element","name","namespace"
 * ("html"|"svg"|"mathml"),"attributes":[{"name","value"} (+ "namespace","prefix","localName" for a
 * namespaced one)],"children":[…]}` and, for a template, `"content":{"type":"fragment","children":[…]}`;
 * `{"type":"text","data"}`, `{"type":"comment","data"}`, `{"type":"doctype","name","publicId","systemId"}`.
 */
export function* jsonPieces(doc: Node): Generator<string> {
  // The stack holds nodes, and closing text (strings) to write after their children.
  const stack: (Node | string)[] = [];
  const open = (children: Node): void => {
    const list: Node[] = [];
    for (let c = children.firstChild; c !== null; c = c.nextSibling) list.push(c);
    for (let i = list.length - 1; i >= 0; i--) {
      stack.push(list[i]!);
      if (i > 0) stack.push(',');
    }
  };
  let piece = doc.nodeType === NodeType.DOCUMENT_NODE ? `{"type":"document","mode":${JSON.stringify((doc as Document).mode)},"children":[` : '{"type":"fragment","children":[';
  stack.push(']}');
  open(doc);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (typeof n === 'string') piece += n;
    else {
      switch (n.nodeType) {
        case NodeType.ELEMENT_NODE: {
          const el = n as Element;
          const list: unknown[] = [];
          for (const a of attributesOf(el)) {
            list.push(a.namespaceURI === null ? { name: a.name, value: a.value } : { name: a.name, value: a.value, namespace: a.namespaceURI, prefix: a.prefix, localName: a.localName });
          }
          piece += `{"type":"element","name":${JSON.stringify(el.localName)},"namespace":${JSON.stringify(SHORT_NS[el.namespaceURI ?? ''] ?? el.namespaceURI)},"attributes":${JSON.stringify(list)},"children":[`;
          if (el instanceof HTMLTemplateElement) {
            // After the children: the contents, then the element's end.
            stack.push(']}}');
            open(el.content);
            stack.push('],"content":{"type":"fragment","children":[');
          } else stack.push(']}');
          open(el);
          break;
        }
        case NodeType.TEXT_NODE:
          piece += `{"type":"text","data":${JSON.stringify((n as Text).data)}}`;
          break;
        case NodeType.COMMENT_NODE:
          piece += `{"type":"comment","data":${JSON.stringify((n as Comment).data)}}`;
          break;
        case NodeType.DOCUMENT_TYPE_NODE: {
          const d = n as DocumentType;
          piece += JSON.stringify({ type: 'doctype', name: d.name, publicId: d.publicId, systemId: d.systemId });
          break;
        }
        default:
          piece += JSON.stringify({ type: n.nodeName });
      }
    }
    if (piece.length >= 16384) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}
