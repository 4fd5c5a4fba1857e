// Differential test of tree construction: random tag soup parsed by sluice (@sluice/dom's `parse` and
// `parseFragment`) and by parse5 (an independent implementation of the same algorithm) must give the
// same tree, dumped in the html5lib format.
//
// The one place the two are known to differ is on purpose kept out of the generator: `<select>` and what
// it holds (option, optgroup, datalist, keygen, selectedcontent). The current standard parses it "in
// body" (html5lib's newer select tests); parse5 8.1.1 still has the older "in select" insertion modes.
// Everything else — tables and foster parenting, the adoption agency, foreign content and its
// integration points, templates, framesets, forms, lists, ruby, raw text elements — is compared, with one
// normalization: parse5 inserts a single U+FFFD for a run of NULs in foreign content (the standard, and
// sluice, insert one per NUL), so runs of U+FFFD are collapsed in both dumps before comparing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as parse5 from 'parse5';
import { parse, parseFragment, toTestFormat } from '@sluice/dom';
import { NS } from '@sluice/tree-builder';

const TAG_NAMES = [
  'html', 'head', 'body', 'title', 'p', 'div', 'span', 'a', 'b', 'i', 'em', 'strong', 'u', 's', 'font', 'nobr',
  'big', 'code', 'table', 'caption', 'colgroup', 'col', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'hr',
  'input', 'textarea', 'button', 'form', 'li', 'ul', 'ol', 'dl', 'dd', 'dt', 'h1', 'h3', 'pre', 'listing',
  'template', 'svg', 'math', 'mi', 'mo', 'mtext', 'mglyph', 'malignmark', 'annotation-xml', 'foreignobject',
  'desc', 'g', 'path', 'br', 'img', 'image', 'area', 'wbr', 'embed', 'param', 'marquee', 'object', 'applet',
  'frameset', 'frame', 'noframes', 'noscript', 'style', 'script', 'xmp', 'iframe', 'noembed', 'plaintext',
  'ruby', 'rb', 'rt', 'rp', 'rtc', 'meta', 'link', 'base', 'center', 'address', 'main', 'section', 'nav',
  'details', 'summary', 'fieldset', 'blockquote', 'menu', 'label', 'x-custom', 'isindex',
];
// (No `search`: parse5 8.1.1 predates it being a special element; html5lib's search-element.dat covers it.)
const ATTRIBUTES = [' id=x', ' color=red', ' size=2', ' type=hidden', ' type=text', ' encoding="text/html"', ' xlink:href=#a', ' definitionurl=u', ' viewbox="0 0 1 1"', ' class=c'];
/**
 * parse5 8.1.1 closes the row on `</tbody>` (`</thead>`, `</tfoot>`) "in row" when that element is NOT in
 * table scope but a tr is — the standard requires both (this shows inside a <template>, which has no
 * tbody). Inputs with both a template and such an end tag are left out.
 */
const parse5RowEndTagDeviation = (html: string) => html.includes('<template') && /<\/t(?:body|head|foot)>/.test(html);

// No `<![CDATA[`: at an SVG/MathML integration point (foreignObject, mi, …) the standard's tokenizer allows
// CDATA (the adjusted current node is not in the HTML namespace), parse5 does not; html5lib covers CDATA.
const TEXT = ['a', ' ', '\n', 'x y', '&amp;', '&lt;', '\u0000', '\t', '<!-- c -->', '<!DOCTYPE html>', '<?pi?>', '</>'];

const tag = fc
  .tuple(fc.boolean(), fc.constantFrom(...TAG_NAMES), fc.array(fc.constantFrom(...ATTRIBUTES), { maxLength: 2 }), fc.boolean())
  .map(([end, name, attributes, selfClosing]) => (end ? `</${name}>` : `<${name}${attributes.join('')}${selfClosing ? '/' : ''}>`));
const soup = fc
  .tuple(
    fc.constantFrom('', '<!DOCTYPE html>', '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">', '<!DOCTYPE html SYSTEM "about:legacy-compat">'),
    fc.array(fc.oneof({ weight: 3, arbitrary: tag }, { weight: 1, arbitrary: fc.constantFrom(...TEXT) }), { maxLength: 40 }),
  )
  .map(([doctype, parts]) => doctype + parts.join(''));

// --- The html5lib dump of a parse5 tree (same format as @sluice/dom's toTestFormat). ---

interface P5Node {
  nodeName: string;
  tagName?: string;
  namespaceURI?: string;
  attrs?: { name: string; value: string; prefix?: string; namespace?: string }[];
  childNodes?: P5Node[];
  content?: P5Node;
  value?: string;
  data?: string;
  name?: string;
  publicId?: string;
  systemId?: string;
}

const ATTRIBUTE_DESIGNATORS: Record<string, string> = { [NS.XLINK]: 'xlink ', [NS.XML]: 'xml ', [NS.XMLNS]: 'xmlns ' };

function dumpParse5(root: P5Node): string {
  const lines: string[] = [];
  const pending: [P5Node | 'content', number][] = [];
  const pushChildren = (node: P5Node, depth: number) => {
    const children = node.childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) pending.push([children[i], depth]);
  };
  pushChildren(root, 0);
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    const indent = '| ' + '  '.repeat(depth);
    if (node === 'content') {
      lines.push(indent + 'content');
      continue;
    }
    switch (node.nodeName) {
      case '#text':
        lines.push(`${indent}"${node.value}"`);
        break;
      case '#comment':
        lines.push(`${indent}<!-- ${node.data} -->`);
        break;
      case '#documentType':
        lines.push(
          node.publicId || node.systemId
            ? `${indent}<!DOCTYPE ${node.name} "${node.publicId}" "${node.systemId}">`
            : `${indent}<!DOCTYPE ${node.name}>`,
        );
        break;
      default: {
        const designator = node.namespaceURI === NS.SVG ? 'svg ' : node.namespaceURI === NS.MATHML ? 'math ' : '';
        lines.push(`${indent}<${designator}${node.tagName}>`);
        const attributes = (node.attrs ?? []).map((a) => [(a.namespace ? ATTRIBUTE_DESIGNATORS[a.namespace] ?? '' : '') + a.name, a.value] as const);
        attributes.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
        for (const [name, value] of attributes) lines.push(`${indent}  ${name}="${value}"`);
        // Children go on the explicit stack in reverse output order: the element's children, then
        // (for a template) its contents under a `content` line.
        pushChildren(node, depth + 1);
        if (node.content !== undefined && node.namespaceURI === NS.HTML) {
          pushChildren(node.content, depth + 2);
          pending.push(['content', depth + 1]);
        }
      }
    }
  }
  return lines.join('\n');
}

const FRAGMENT_CONTEXTS = ['div', 'body', 'table', 'tbody', 'tr', 'td', 'template', 'svg svg', 'math mi', 'svg foreignObject', 'html', 'title', 'textarea', 'style', 'pre'];

function parse5Fragment(html: string, context: string, scripting: boolean): string {
  const space = context.indexOf(' ');
  const namespace = space < 0 ? NS.HTML : context.startsWith('svg') ? NS.SVG : NS.MATHML;
  const localName = space < 0 ? context : context.slice(space + 1);
  const element = parse5.defaultTreeAdapter.createElement(localName, namespace as never, []);
  return dumpParse5(parse5.parseFragment(element, html, { scriptingEnabled: scripting }) as unknown as P5Node);
}

/** See the file comment: parse5 turns a run of NULs in foreign content into one U+FFFD. */
const collapseReplacementRuns = (dump: string) => dump.replace(/\uFFFD+/g, '\uFFFD');

describe('sluice and parse5 build the same trees', () => {
  it('for documents', () => {
    fc.assert(
      fc.property(soup, fc.boolean(), (html, scripting) => {
        fc.pre(!parse5RowEndTagDeviation(html));
        const ours = toTestFormat(parse(html, { scripting }));
        const theirs = dumpParse5(parse5.parse(html, { scriptingEnabled: scripting }) as unknown as P5Node);
        expect(collapseReplacementRuns(ours), JSON.stringify(html)).toBe(collapseReplacementRuns(theirs));
      }),
      { seed: 31337, numRuns: 2000 },
    );
  });

  it('for fragments', () => {
    fc.assert(
      fc.property(soup, fc.constantFrom(...FRAGMENT_CONTEXTS), fc.boolean(), (html, context, scripting) => {
        fc.pre(!parse5RowEndTagDeviation(html) && !(context === 'template' && /<\/t(?:body|head|foot)>/.test(html)));
        const ours = toTestFormat(parseFragment(html, context, { scripting }));
        const theirs = parse5Fragment(html, context, scripting);
        expect(collapseReplacementRuns(ours), `${context}: ${JSON.stringify(html)}`).toBe(collapseReplacementRuns(theirs));
      }),
      { seed: 4242, numRuns: 1500 },
    );
  });
});
