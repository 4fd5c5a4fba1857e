/**
 * §13.2.6.5 The rules for parsing tokens in foreign content (SVG and MathML).
 */
import { SVG_TAG_NAMES } from './foreign-adjustments.js';
import { NS } from './sink.js';
import { HTML_INTEGRATION_POINT, HTML_NS, MATHML_TEXT_INTEGRATION_POINT, T } from './tag-sets.js';
import type { TreeBuilder } from './tree-builder.js';
import { CHARACTERS, COMMENT, DOCTYPE, END_TAG, START_TAG, type TagToken, type TreeToken } from './tree-tokens.js';

/** Start tags that break out of foreign content (plus `<font>` with color, face or size). */
function breaksOut(t: TagToken): boolean {
  switch (t.id) {
    case T.B: case T.BIG: case T.BLOCKQUOTE: case T.BODY: case T.BR: case T.CENTER: case T.CODE: case T.DD:
    case T.DIV: case T.DL: case T.DT: case T.EM: case T.EMBED: case T.H1: case T.H2: case T.H3: case T.H4:
    case T.H5: case T.H6: case T.HEAD: case T.HR: case T.I: case T.IMG: case T.LI: case T.LISTING:
    case T.MENU: case T.META: case T.NOBR: case T.OL: case T.P: case T.PRE: case T.RUBY: case T.S:
    case T.SMALL: case T.SPAN: case T.STRONG: case T.STRIKE: case T.SUB: case T.SUP: case T.TABLE:
    case T.TT: case T.U: case T.UL: case T.VAR:
      return true;
    case T.FONT:
      for (const attribute of t.attributes) {
        if (attribute.name === 'color' || attribute.name === 'face' || attribute.name === 'size') return true;
      }
      return false;
    default:
      return false;
  }
}

export function foreignContent<N>(tb: TreeBuilder<N>, t: TreeToken): void {
  const stack = tb.stack;
  switch (t.kind) {
    case CHARACTERS: {
      let data = t.data;
      // Any character other than whitespace and NUL sets frameset-ok to "not ok".
      if (tb.framesetOk && /[^\t\n\f\r \u0000]/.test(data)) tb.framesetOk = false;
      if (data.includes('\u0000')) {
        // U+0000 NULL: parse error; insert U+FFFD instead.
        tb.nullCharacterErrors(t.start);
        data = data.replaceAll('\u0000', '\uFFFD');
      }
      tb.insertCharacters(data, t.start, t.end);
      return;
    }
    case COMMENT:
      tb.insertComment(t);
      return;
    case DOCTYPE:
      tb.error('unexpected-doctype');
      return;
    case START_TAG: {
      if (breaksOut(t)) {
        tb.error('unexpected-html-element-in-foreign-content');
        popToHtmlContent(tb);
        tb.processInMode(tb.mode, t);
        return;
      }
      // Any other start tag.
      const adjusted = tb.adjustedCurrentNode;
      const namespace = adjusted.namespace === NS.MATHML ? NS.MATHML : NS.SVG;
      const localName = namespace === NS.SVG ? (SVG_TAG_NAMES.get(t.name) ?? t.name) : t.name;
      tb.insertForeignElement(t, localName, namespace);
      if (t.selfClosing) {
        t.acknowledged = true;
        const element = stack.pop();
        // A self-closing SVG <script> is processed like </script>.
        if (namespace === NS.SVG && localName === 'script') tb.runScript(element.node);
      }
      return;
    }
    case END_TAG: {
      if (t.id === T.BR || t.id === T.P) {
        tb.error('unexpected-html-element-in-foreign-content');
        popToHtmlContent(tb);
        tb.processInMode(tb.mode, t);
        return;
      }
      const current = stack.current;
      if (t.name === 'script' && current.namespace === NS.SVG && current.localName === 'script') {
        const script = stack.pop(tb.endLocation(t));
        tb.runScript(script.node);
        return;
      }
      // Any other end tag: the nearest foreign element of that name (ASCII case-insensitively) is popped
      // up to, unless an HTML element comes first: then the HTML rules of the insertion mode decide.
      if (asciiLowercase(current.localName) !== t.name) tb.error('unexpected-end-tag');
      if (stack.length === 1) return;   // fragment case: the walk starts at the root and stops there
      const target = stack.foreignEndTagTarget(t.name);
      if (target !== null) stack.popUntilRecord(target, tb.endLocation(t));
      else tb.processInMode(tb.mode, t);
      return;
    }
    default:
      return;
  }
}

/**
 * Pop until the current node is a MathML text integration point, an HTML integration point, or an HTML
 * element (the breakout of §13.2.6.5).
 */
function popToHtmlContent<N>(tb: TreeBuilder<N>): void {
  const stack = tb.stack;
  while (stack.length > 0) {
    const flags = stack.current.flags;
    if (flags & (HTML_NS | MATHML_TEXT_INTEGRATION_POINT | HTML_INTEGRATION_POINT)) return;
    stack.pop();
  }
}

/** ASCII lowercase (§ Infra): only A–Z change. */
function asciiLowercase(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}
