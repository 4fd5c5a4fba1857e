/**
 * The DOM written out piece by piece, never as one string: the indented tree (`toIndentedTree`'s
 * format), the html5lib test format (`toTestFormat`'s), the HTML serialization (HTML §13.3, as
 * `serialize`), and the JSON shape of docs/cli.md. Each is a generator over an explicit stack (no
 * recursion: documents nest 100,000 deep) that yields lines or pieces; the command writes them with
 * backpressure. The tests check each against `@sluice/dom`'s own function on whole pages.
 */
import { NS } from '@sluice/tree-builder';
import { HTMLTemplateElement, NodeType, escapeString, serializeOuter, type Comment, type Document, type DocumentType, type Element, type Node, type Text } from '@sluice/dom';

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

/** Options of {@link indentedTreeLines}: `toIndentedTree`'s. */
export interface TreeLineOptions {
  maxTextLength?: number;
  locations?: boolean;
  maxIndent?: number;
}

/** The lines of `toIndentedTree(node, options)`, one at a time. */
export function* indentedTreeLines(node: Node, options: TreeLineOptions = {}): Generator<string> {
  const maxText = options.maxTextLength ?? 60;
  const withLocations = options.locations ?? false;
  const maxIndent = options.maxIndent ?? 40;
  // Explicit stack of (node, depth); a null node is the `#content` label of the template below it.
  const nodes: (Node | null)[] = [node];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    const depth = depths.pop()!;
    const indent = depth <= maxIndent ? '  '.repeat(depth) : `${'  '.repeat(maxIndent)}[${depth}] `;
    if (n === null) {
      yield indent + '#content';
      continue;
    }
    yield indent + describe(n, maxText) + (withLocations ? locationOf(n) : '');
    for (let c = n.lastChild; c !== null; c = c.previousSibling) {
      nodes.push(c);
      depths.push(depth + 1);
    }
    if (n instanceof HTMLTemplateElement) {
      for (let c = n.content.lastChild; c !== null; c = c.previousSibling) {
        nodes.push(c);
        depths.push(depth + 2);
      }
      nodes.push(null);
      depths.push(depth + 1);
    }
  }
}

function describe(n: Node, maxText: number): string {
  switch (n.nodeType) {
    case NodeType.ELEMENT_NODE: {
      const el = n as Element;
      const prefix = el.namespaceURI === NS.SVG ? 'svg:' : el.namespaceURI === NS.MATHML ? 'math:' : '';
      let s = `<${prefix}${el.localName}`;
      for (const a of attributesOf(el)) s += ` ${a.name}=${JSON.stringify(cut(a.value, maxText))}`;
      return s + '>';
    }
    case NodeType.TEXT_NODE:
      return JSON.stringify(cut((n as Text).data, maxText));
    case NodeType.COMMENT_NODE:
      return `<!-- ${JSON.stringify(cut((n as Comment).data, maxText)).slice(1, -1)} -->`;
    case NodeType.DOCUMENT_TYPE_NODE: {
      const d = n as DocumentType;
      let s = `<!DOCTYPE ${d.name}`;
      if (d.publicId !== '') s += ` PUBLIC ${JSON.stringify(d.publicId)}`;
      if (d.systemId !== '') s += `${d.publicId === '' ? ' SYSTEM' : ''} ${JSON.stringify(d.systemId)}`;
      return s + '>';
    }
    case NodeType.DOCUMENT_NODE:
      return `#document (${(n as Document).mode})`;
    default:
      return n.nodeName;
  }
}

function cut(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) + '…' : s;
}

function locationOf(n: Node): string {
  const loc = n.sourceLocation;
  let s = loc === null ? '' : `  @${loc.start}-${loc.end}`;
  if (n.nodeType === NodeType.ELEMENT_NODE) {
    const end = (n as Element).endTagLocation;
    if (end !== null) s += `${s === '' ? '  ' : ' '}</>@${end.start}-${end.end}`;
  }
  return s;
}

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

/** HTML §13.3: elements that serialize as void (no children, no end tag). HTML namespace only. */
const VOID_ELEMENTS = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** HTML §13.3: the local name for HTML, SVG and MathML elements; the qualified name otherwise. */
function tagNameOf(el: Element): string {
  const ns = el.namespaceURI;
  if (ns === NS.HTML || ns === NS.SVG || ns === NS.MATHML || el.prefix === null) return el.localName;
  return `${el.prefix}:${el.localName}`;
}

/** HTML §13.3 "the attribute's serialized name". */
function attributeName(a: { namespaceURI: string | null; localName: string; name: string }): string {
  switch (a.namespaceURI) {
    case null:
      return a.localName;
    case NS.XML:
      return `xml:${a.localName}`;
    case NS.XMLNS:
      return a.localName === 'xmlns' ? 'xmlns' : `xmlns:${a.localName}`;
    case NS.XLINK:
      return `xlink:${a.localName}`;
    default:
      return a.name;
  }
}

function startTag(el: Element): string {
  let s = '<' + tagNameOf(el);
  for (const a of attributesOf(el)) s += ' ' + attributeName(a) + '="' + escapeString(a.value, true) + '"';
  return s + '>';
}

/**
 * The HTML serialization of `node`'s children (a Document: the whole document), in pieces: what
 * `serialize(node)` returns, joined. With `outer`, of the node itself (`serializeOuter`). Leaves —
 * text (escaped or raw by its parent), comments, doctypes — are `serializeOuter`'s own; elements are
 * written here: a start tag, the children (a template's contents), an end tag unless void.
 */
export function* htmlPieces(node: Node, outer = false): Generator<string> {
  // The stack holds nodes to write, and end tags (strings) to write after their children.
  const stack: (Node | string)[] = [];
  const pushChildrenOf = (n: Node): void => {
    const container = n instanceof HTMLTemplateElement ? n.content : n;
    for (let c = container.lastChild; c !== null; c = c.previousSibling) stack.push(c);
  };
  if (outer && node.nodeType === NodeType.ELEMENT_NODE) stack.push(node);
  else if (!(node.nodeType === NodeType.ELEMENT_NODE && isVoid(node as Element))) pushChildrenOf(node);
  let piece = '';
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (typeof n === 'string') piece += n;
    else if (n.nodeType === NodeType.ELEMENT_NODE) {
      const el = n as Element;
      piece += startTag(el);
      if (!isVoid(el)) {
        stack.push(`</${tagNameOf(el)}>`);
        pushChildrenOf(el);
      }
    } else piece += serializeOuter(n);
    if (piece.length >= 16384) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

function isVoid(el: Element): boolean {
  return el.namespaceURI === NS.HTML && VOID_ELEMENTS.has(el.localName);
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
