/**
 * The browser's own parse of the input (`DOMParser`, or a context element's `innerHTML` for a fragment),
 * dumped in the html5lib tree format that sluice's `toTestFormat` writes, so the two trees compare line
 * by line; and the known ways this browser (Chromium) parts from the HTML Standard, each a model that
 * says how the browser's tree follows from the standard's.
 */
import { parse, parseFragment, toTestFormat } from 'sluice';
import type { Settings } from './pipeline.js';

const HTML = 'http://www.w3.org/1999/xhtml';
const SVG = 'http://www.w3.org/2000/svg';
const MATHML = 'http://www.w3.org/1998/Math/MathML';
const ATTRIBUTE_DESIGNATOR: Record<string, string> = {
  'http://www.w3.org/1999/xlink': 'xlink',
  'http://www.w3.org/XML/1998/namespace': 'xml',
  'http://www.w3.org/2000/xmlns/': 'xmlns',
};

/**
 * The browser's tree of `input`. `DOMParser` makes a document without a browsing context, so scripting
 * is off (HTML §13.2.2's scripting flag) and a leading U+FEFF is text: sluice is compared with the same.
 */
export function browserDump(input: string, context: string | null): string {
  // A no-quirks document, as sluice's parseFragment assumes for a context given by name.
  const doc = new DOMParser().parseFromString('<!DOCTYPE html>', 'text/html');
  if (context === null) return dumpBrowserNode(new DOMParser().parseFromString(input, 'text/html'));
  const space = context.indexOf(' ');
  const ns = space < 0 ? HTML : context.startsWith('svg ') ? SVG : MATHML;
  const el = doc.createElementNS(ns, space < 0 ? context : context.slice(space + 1));
  el.innerHTML = input;
  return dumpBrowserNode(el instanceof HTMLTemplateElement ? el.content : el);
}

/** sluice's tree of `input` as the browser's is made: scripting off, a leading BOM kept. */
export function sluiceDump(input: string, context: string | null): string {
  if (context === null) return toTestFormat(parse(input, { scripting: false, stripByteOrderMark: false }));
  return toTestFormat(parseFragment(input, context, { scripting: false }));
}

/** A browser node's children (or, for an element, its children) in the html5lib test format. Iterative. */
export function dumpBrowserNode(root: globalThis.Node): string {
  const lines: string[] = [];
  const stack: { node: globalThis.Node | null; depth: number }[] = [];
  const pushChildren = (parent: globalThis.Node, depth: number) => {
    for (let c = parent.lastChild; c !== null; c = c.previousSibling) stack.push({ node: c, depth });
  };
  pushChildren(root, 0);
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const indent = '| ' + '  '.repeat(depth);
    if (node === null) {
      lines.push(indent + 'content');
      continue;
    }
    switch (node.nodeType) {
      case 1: {
        const el = node as globalThis.Element;
        const ns = el.namespaceURI;
        const name = ns === SVG ? `svg ${el.localName}` : ns === MATHML ? `math ${el.localName}` : el.localName;
        lines.push(`${indent}<${name}>`);
        const attrs = [...el.attributes].map((a) => {
          const d = a.namespaceURI === null ? undefined : ATTRIBUTE_DESIGNATOR[a.namespaceURI];
          return [d === undefined ? (a.namespaceURI === null ? a.localName : a.name) : `${d} ${a.localName}`, a.value] as const;
        });
        attrs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        for (const [n, v] of attrs) lines.push(`${indent}  ${n}="${v}"`);
        pushChildren(el, depth + 1);
        if (el instanceof HTMLTemplateElement && ns === HTML) {
          pushChildren(el.content, depth + 2);
          stack.push({ node: null, depth: depth + 1 });
        }
        break;
      }
      case 3:
        lines.push(`${indent}"${(node as globalThis.Text).data}"`);
        break;
      case 8:
        lines.push(`${indent}<!-- ${(node as globalThis.Comment).data} -->`);
        break;
      case 7: {
        const pi = node as globalThis.ProcessingInstruction;
        lines.push(`${indent}<?${pi.target} ${pi.data}>`);
        break;
      }
      case 10: {
        const d = node as globalThis.DocumentType;
        lines.push(d.publicId !== '' || d.systemId !== '' ? `${indent}<!DOCTYPE ${d.name} "${d.publicId}" "${d.systemId}">` : `${indent}<!DOCTYPE ${d.name}>`);
        break;
      }
      default:
        pushChildren(node, depth);
    }
  }
  return lines.join('\n');
}

/** A known browser deviation: when it applies, and the standard's tree made to look like the browser's. */
interface Deviation {
  name: string;
  explanation: string;
  applies(input: string): boolean;
  /** The input as the browser effectively parses it (for a deviation before tree construction). */
  input?(input: string): string;
  /** Both dumps normalized where the deviation makes them differ in a known way. */
  dump?(dump: string): string;
}

export const DEVIATIONS: readonly Deviation[] = [
  {
    name: 'U+0000 after “<”',
    explanation:
      'After a “<” that starts no tag, the standard’s tokenizer emits the U+0000 as text (§13.2.5.6 tag open state, “anything else”), and “in body” then drops it; Chromium turns it into U+FFFD.',
    applies: (s) => s.includes('<\0'),
    input: (s) => s.replaceAll('<\0', '<\uFFFD'),
  },
  {
    name: 'U+0000 dropped in text',
    explanation:
      'Chromium drops U+0000 in text before tree construction; the standard’s tree builder sees it first (e.g. after </title> it ends “in head” and implies <body>, so a later <meta> goes into the body).',
    applies: (s) => s.includes('\0'),
    input: (s) => s.replaceAll('\0', ''),
    dump: (d) => d.replaceAll('\uFFFD', ''),
  },
  {
    name: '<search> not special',
    explanation: 'Some Chromium builds do not yet treat <search> as a special element (§13.2.6.4.7 lists it with <address>, <div>, …).',
    applies: (s) => /<\/?search/i.test(s),
    input: (s) => s.replace(/<(\/?)search(?=[\s/>])/gi, '<$1x-search-as-chromium'),
    dump: (d) => d.replaceAll('x-search-as-chromium', 'search'),
  },
  {
    name: 'processing instructions',
    explanation: 'This Chromium makes “<?x?>” a ProcessingInstruction node; the standard makes a bogus comment (§13.2.5.6, unexpected-question-mark-instead-of-tag-name).',
    applies: (s) => s.includes('<?'),
    dump: (d) => d.replace(/^(\|\s*)<!-- \?.*? -->$/gm, '$1<?…>').replace(/^(\|\s*)<\?.*>$/gm, '$1<?…>'),
  },
];

export interface Differential {
  sluice: string;
  browser: string;
  /** Equal dumps. */
  same: boolean;
  /** When they differ: the known deviations that explain it (empty: unexplained). */
  explainedBy: Deviation[];
}

/** Compares sluice's tree with the browser's, and names the known deviations that explain a difference. */
export function differential(input: string, settings: Settings): Differential {
  const sluice = sluiceDump(input, settings.context);
  const browser = browserDump(input, settings.context);
  if (sluice === browser) return { sluice, browser, same: true, explainedBy: [] };
  const candidates = DEVIATIONS.filter((d) => d.applies(input));
  // Smallest set first: each deviation alone, then all that apply together.
  const sets = [...candidates.map((d) => [d]), ...(candidates.length > 1 ? [candidates] : [])];
  for (const set of sets) {
    let modelInput = input;
    for (const d of set) if (d.input) modelInput = d.input(modelInput);
    let model = modelInput === input ? sluice : sluiceDump(modelInput, settings.context);
    let seen = browser;
    for (const d of set) {
      if (d.dump) {
        model = d.dump(model);
        seen = d.dump(seen);
      }
    }
    if (model === seen) return { sluice, browser, same: false, explainedBy: set };
  }
  return { sluice, browser, same: false, explainedBy: [] };
}
