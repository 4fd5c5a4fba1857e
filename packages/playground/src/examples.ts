/** The examples the page offers. A byte example goes through sluice's byte path (`parse(bytes)` sniffs). */
import corpusPage from '../examples/corpus-github-page.html';

export interface Example {
  name: string;
  /** The markup (for a byte example, shown decoded). */
  html?: string;
  /** Bytes in: the page's bytes, in a legacy encoding. */
  bytes?: Uint8Array;
  /** A fragment context (`'tr'`, `'svg g'`) instead of a document. */
  context?: string;
  /** A selector to start the rewrite view with. */
  selector?: string;
}

/** Bytes from a string whose characters are the bytes (`'\xE9'` is the byte E9). */
const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

export const EXAMPLES: readonly Example[] = [
  {
    name: 'Tag soup',
    html: '<!DOCTYPE html>\n<title>Soup &amp; more</title>\n<p class=intro>One <b>two <i>three</b> four</i> five\n<p>Six &amp seven &not; eight <a href="/x">link <a href=/y>another</a>\n<ul><li>first<li>second</ul>\n<!-- a comment -->\n<br/></br>',
    selector: 'a[href]',
  },
  {
    name: 'A misnested table (foster parenting)',
    html: '<table>\n  <b>bold before a row</b>\n  <tr><td>cell<td>next\n  text in a table\n  <p>a paragraph</table>\n<table><tr><td>x<b>y</table>',
    selector: 'td',
  },
  {
    name: 'A <template>',
    html: '<template id=row>\n  <tr><td class=name>name</td><td>value</td></tr>\n  <template><p>a template inside a template</template>\n</template>\n<p>After the template</p>',
    selector: 'p',
  },
  {
    name: 'SVG and MathML',
    html: '<p>Math: <math><mi>x</mi><mo>=</mo><mfrac><mn>1</mn><mn>2</mn></mfrac></math>\n<p>SVG: <svg viewBox="0 0 10 10"><circle cx=5 cy=5 r=4 xlink:href="#a"/>\n<foreignObject><div>HTML inside SVG</div></foreignObject>\n<![CDATA[ raw <text> ]]><desc><b>html again</b></desc></svg> after',
    selector: 'circle',
  },
  {
    name: 'Script, RCDATA and raw text',
    html: '<script>if (a < b && c) document.title = "</scr" + "ipt>";</script>\n<textarea>&lt;b&gt; is <b>text</b></textarea>\n<style>p > a { color: red }</style><noscript><p>no script</p></noscript>',
    selector: 'script',
  },
  {
    name: 'A page from the corpus (GitHub, 13 KB)',
    html: corpusPage,
    selector: 'a[href^="/"]',
  },
  {
    name: 'Bytes in: windows-1252',
    bytes: bytes('<!DOCTYPE html>\n<meta charset=windows-1252>\n<title>Caf\xe9</title>\n<p>Cr\xe8me br\xfbl\xe9e \x96 \x93quoted\x94 \x80 5 \x85</p>\n'),
    selector: 'p',
  },
  {
    name: 'Bytes in: Shift_JIS',
    // 日本語のテキスト, then ソース: its second byte is 0x5C, an ASCII backslash, inside a character.
    bytes: bytes('<meta charset="shift_jis">\n<p title="\x83\x5c\x81\x5b\x83\x58">\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67</p>\n'),
    selector: 'p',
  },
  {
    name: 'A fragment in a <tr> (innerHTML)',
    html: '<td>one<td>two</tr><tr><td>three',
    context: 'tr',
    selector: 'td',
  },
  {
    name: 'A NUL (a known browser deviation)',
    html: '<title>a</title>\0<meta name=x>',
  },
];
