// Unit tests of the tree builder's own contract: the sink events it sends (with source locations and
// elementPopped), its read-only views for the rewriter, the tokenizer feedback, the options, and misuse.
// Tree shapes themselves are the html5lib suites' business (tests/conformance).
import { describe, expect, it } from 'vitest';
import { Tokenizer, attributesOfRawTag, type TextToken } from '@sluice/tokenizer';
import {
  NS,
  Parser,
  TreeBuilder,
  type DocumentMode,
  type ElementAttribute,
  type ElementNamespace,
  type SourceLocation,
  type TreeSink,
} from '../src/index.js';
import { readDatFiles, treeConstructionDir } from './support/html5lib-tree-tests.js';

/** A tiny tree that records what the tree builder asked for. */
interface TestNode {
  kind: 'document' | 'element' | 'text' | 'comment' | 'doctype' | 'fragment';
  name: string;
  namespace?: ElementNamespace;
  attributes?: readonly ElementAttribute[];
  data?: string;
  location: SourceLocation | null;
  endLocation?: SourceLocation | null;
  parent: TestNode | null;
  children: TestNode[];
  contents?: TestNode;
  popped: number;
}

function node(kind: TestNode['kind'], name: string, location: SourceLocation | null = null): TestNode {
  return { kind, name, location, parent: null, children: [], popped: 0 };
}

class TestSink implements TreeSink<TestNode> {
  readonly document = node('document', '#document');
  mode: DocumentMode = 'no-quirks';
  readonly log: string[] = [];
  createElement(localName: string, namespace: ElementNamespace, attributes: readonly ElementAttribute[], location: SourceLocation | null): TestNode {
    const element = node('element', localName, location);
    element.namespace = namespace;
    element.attributes = attributes;
    if (localName === 'template' && namespace === NS.HTML) element.contents = node('fragment', '#contents');
    return element;
  }
  createComment(data: string, location: SourceLocation | null): TestNode {
    const comment = node('comment', '#comment', location);
    comment.data = data;
    return comment;
  }
  createDocumentType(name: string, _publicId: string, _systemId: string, location: SourceLocation | null): TestNode {
    return node('doctype', name, location);
  }
  insertText(parent: TestNode, data: string, before: TestNode | null, location: SourceLocation | null): void {
    const index = before === null ? parent.children.length : parent.children.indexOf(before);
    const previous = parent.children[index - 1];
    if (previous !== undefined && previous.kind === 'text') {
      previous.data += data;
      previous.location = { start: previous.location!.start, end: location!.end };
      return;
    }
    const text = node('text', '#text', location);
    text.data = data;
    text.parent = parent;
    parent.children.splice(index, 0, text);
  }
  insertBefore(parent: TestNode, child: TestNode, before: TestNode | null): void {
    this.remove(child);
    const index = before === null ? parent.children.length : parent.children.indexOf(before);
    parent.children.splice(index, 0, child);
    child.parent = parent;
    this.log.push(`insert ${child.name} into ${parent.name}${before === null ? '' : ` before ${before.name}`}`);
  }
  remove(child: TestNode): void {
    if (child.parent === null) return;
    child.parent.children.splice(child.parent.children.indexOf(child), 1);
    child.parent = null;
  }
  moveChildren(from: TestNode, to: TestNode): void {
    for (const child of [...from.children]) this.insertBefore(to, child, null);
  }
  parentNode(child: TestNode): TestNode | null {
    return child.parent;
  }
  addMissingAttributes(element: TestNode, attributes: readonly ElementAttribute[]): void {
    const have = new Set(element.attributes!.map((a) => a.name));
    element.attributes = [...element.attributes!, ...attributes.filter((a) => !have.has(a.name))];
  }
  setDocumentMode(mode: DocumentMode): void {
    this.mode = mode;
  }
  templateContents(template: TestNode): TestNode {
    return template.contents!;
  }
  elementPopped(element: TestNode, endLocation: SourceLocation | null): void {
    element.popped++;
    element.endLocation = endLocation;
    this.log.push(`pop ${element.name}${endLocation === null ? '' : ` ${endLocation.start}-${endLocation.end}`}`);
  }
}

function dump(root: TestNode, depth = 0): string[] {
  const lines: string[] = [];
  for (const child of root.children) {
    lines.push('  '.repeat(depth) + (child.kind === 'text' ? JSON.stringify(child.data) : child.name));
    lines.push(...dump(child, depth + 1));
    if (child.contents) lines.push(...dump(child.contents, depth + 1));
  }
  return lines;
}

function parse(html: string, options: ConstructorParameters<typeof Parser<TestNode>>[1] = {}): { sink: TestSink; parser: Parser<TestNode> } {
  const sink = new TestSink();
  const parser = new Parser(sink, options);
  parser.write(html);
  parser.end();
  return { sink, parser };
}

function find(root: TestNode, name: string): TestNode {
  const pending = [root];
  while (pending.length > 0) {
    const n = pending.pop()!;
    if (n.name === name && n.kind === 'element') return n;
    pending.push(...n.children, ...(n.contents ? [n.contents] : []));
  }
  throw new Error(`no <${name}>`);
}

describe('TreeBuilder', () => {
  it("tells a sink that asks which element the adoption agency algorithm's inner loop drops past its third iteration, and what it passed first (§13.2.6.4.7 step 4.13.4)", () => {
    class PastThreeSink extends TestSink {
      readonly pastThree: string[] = [];
      adoptionAgencyDroppedPastThree(element: TestNode, passed: readonly TestNode[], count: number): void {
        // (Told before the element leaves the stack: it is not popped yet.)
        const name = (n: TestNode) => n.name + n.attributes!.map((a) => a.value).join('');
        this.pastThree.push(`${name(element)} popped ${element.popped} after ${passed.slice(0, count).map(name).join(',')}`);
      }
    }
    const run = (html: string): string[] => {
      const sink = new PastThreeSink();
      const parser = new Parser(sink);
      parser.write(html);
      parser.end();
      return sink.pastThree;
    };
    // The span counts as an iteration (4.13.5 removes it): the first i is reached on the fourth.
    expect(run('<a><i id=1><i id=2><i id=3><span><div><a>')).toEqual(['i1 popped 0 after span,i3,i2']);
    expect(run('<b><i id=1><i id=2><i id=3><i id=4><div></b>')).toEqual(['i1 popped 0 after i4,i3,i2']);
    // One pass, two past the third: each told what came before it.
    expect(run('<b><i id=1><i id=2><i id=3><i id=4><i id=5><div></b>')).toEqual(['i2 popped 0 after i5,i4,i3', 'i1 popped 0 after i5,i4,i3,i2']);
    // Three iterations or fewer: copies only, nothing to tell.
    expect(run('<a><i id=1><i id=2><i id=3><div><a>')).toEqual([]);
    expect(run('<b><i><span><div></b>')).toEqual([]);
  });

  it('gives every element its start tag location and reports the end tag that closed it', () => {
    const html = '<p class=a>x<b>y</b></p><div>z';
    const { sink } = parse(html);
    const p = find(sink.document, 'p');
    expect(p.location).toEqual({ start: 0, end: 11 });
    expect(p.endLocation).toEqual({ start: html.indexOf('</p>'), end: html.indexOf('</p>') + 4 });
    expect(find(sink.document, 'b').endLocation).toEqual({ start: html.indexOf('</b>'), end: html.indexOf('</b>') + 4 });
    // Closed at the end of the input: no end tag.
    expect(find(sink.document, 'div').endLocation).toBeNull();
    // Made-up elements have no location.
    expect(find(sink.document, 'head').location).toBeNull();
    expect(find(sink.document, 'body').location).toBeNull();
    // Every element is popped exactly once.
    for (const name of ['html', 'head', 'body', 'p', 'b', 'div']) expect(find(sink.document, name).popped, name).toBe(1);
  });

  it('reports implicitly closed elements with no end location, and </body>, </html> when the body and html are popped', () => {
    const html = '<ul><li>a<li>b</ul></body></html>';
    const { sink } = parse(html);
    const [first, second] = find(sink.document, 'ul').children;
    expect(first.endLocation).toBeNull();
    expect(second.endLocation).toBeNull();
    expect(find(sink.document, 'ul').endLocation).toEqual({ start: html.indexOf('</ul>'), end: html.indexOf('</ul>') + 5 });
    expect(find(sink.document, 'body').endLocation).toEqual({ start: html.indexOf('</body>'), end: html.indexOf('</body>') + 7 });
    expect(find(sink.document, 'html').endLocation).toEqual({ start: html.indexOf('</html>'), end: html.indexOf('</html>') + 7 });
    // Content after </body> goes back into the body, which then was not closed by that end tag.
    const after = parse('<p>a</body>b');
    expect(find(after.sink.document, 'body').endLocation).toBeNull();
  });

  it('spans merged text over the tokens it came from', () => {
    const html = '<p>a&amp;b<!--c-->d</p>';
    const { sink } = parse(html);
    const [ab, , d] = find(sink.document, 'p').children;
    expect(ab.data).toBe('a&b');
    expect(ab.location).toEqual({ start: 3, end: 10 });
    expect(d.location).toEqual({ start: html.indexOf('d'), end: html.indexOf('d') + 1 });
  });

  it('foster parents before the table, through the sink', () => {
    const { sink } = parse('<table><tr><td>a</td></tr>b<tr></table>');
    expect(dump(find(sink.document, 'body'))).toEqual(['"b"', 'table', '  tbody', '    tr', '      td', '        "a"', '    tr']);
    const foster = parse('<table><span>x</span></table>');
    expect(foster.sink.log).toContain('insert span into body before table');
  });

  it("tells, element by element from the current node down, whether the dispatcher would read a token by the insertion mode's rules there (§13.2.6)", () => {
    const parser = new Parser(new TestSink());
    parser.write('<table><math><mi><svg><title>');
    const builder = parser.treeBuilder;
    const at = (kind: 'start' | 'end' | 'text', name: string): string[] => {
      const out: string[] = [];
      builder.forEachDispatchFromTop(kind, name, (node, inMode) => {
        out.push(`${node.name}:${inMode ? 'mode' : 'foreign'}`);
        return true;
      });
      return out;
    };
    expect(builder.adjustedCurrentNodeIsHtml()).toBe(false);
    // title: an HTML integration point (start tags, text); svg: none; mi: a MathML text integration point
    // (not for mglyph); math: none; then HTML elements.
    expect(at('start', 'td')).toEqual(['title:mode', 'svg:foreign', 'mi:mode', 'math:foreign', 'table:mode', 'body:mode', 'html:mode']);
    expect(at('start', 'mglyph')).toEqual(['title:mode', 'svg:foreign', 'mi:foreign', 'math:foreign', 'table:mode', 'body:mode', 'html:mode']);
    expect(at('text', '')).toEqual(['title:mode', 'svg:foreign', 'mi:mode', 'math:foreign', 'table:mode', 'body:mode', 'html:mode']);
    expect(at('end', 'td')).toEqual(['title:foreign', 'svg:foreign', 'mi:foreign', 'math:foreign', 'table:mode', 'body:mode', 'html:mode']);
    parser.write('</title></svg></mi><annotation-xml>');
    expect(at('start', 'svg')[0]).toBe('annotation-xml:mode');
    expect(at('start', 'div')[0]).toBe('annotation-xml:foreign');
    parser.write('</annotation-xml></math>');
    expect(builder.adjustedCurrentNodeIsHtml()).toBe(true);
    parser.end();
  });

  it('exposes the stack of open elements and the insertion mode while parsing', () => {
    const sink = new TestSink();
    const parser = new Parser(sink);
    parser.write('<!DOCTYPE html><table><tr><td><svg><g>');
    const builder = parser.treeBuilder;
    expect(builder.openElements.map((e) => e.localName)).toEqual(['html', 'body', 'table', 'tbody', 'tr', 'td', 'svg', 'g']);
    expect(builder.openElements[6].namespace).toBe(NS.SVG);
    expect(builder.openElements[5].node).toBe(find(sink.document, 'td'));
    expect(builder.insertionMode).toBe('in cell');
    expect(builder.cdataAllowed()).toBe(true);
    parser.write('</svg></td>');
    expect(builder.insertionMode).toBe('in row');
    expect(builder.cdataAllowed()).toBe(false);
    parser.end();
    expect(builder.openElements).toHaveLength(0);
  });

  it('switches the tokenizer to the text modes the rules ask for', () => {
    const modes: string[] = [];
    const sink = new TestSink();
    let builder: TreeBuilder<TestNode> | null = null;
    const tokenizer = new Tokenizer({ autoTextMode: false, cdataAllowed: () => builder!.cdataAllowed() });
    const feedback = {
      setTextMode: (mode: Parameters<Tokenizer['setTextMode']>[0]) => {
        modes.push(mode);
        tokenizer.setTextMode(mode);
      },
      insert: (text: string) => tokenizer.insert(text),
    };
    builder = new TreeBuilder(sink, feedback);
    const emit = (token: Parameters<TreeBuilder<TestNode>['processToken']>[0]) => builder!.processToken(token);
    tokenizer.write('<title>t</title><style>s</style><script>x</script><textarea>a</textarea><noscript>n</noscript><svg><style>q</style></svg><plaintext>p', emit);
    tokenizer.end(emit);
    builder.processEnd();
    // <style> inside <svg> is foreign: no text mode. <noscript> is raw text with scripting on.
    expect(modes).toEqual(['rcdata', 'rawtext', 'scriptData', 'rcdata', 'rawtext', 'plaintext']);
  });

  it('hands each token to options.onToken after the tree builder processed it', () => {
    const seen: string[] = [];
    const input = '<title><b></title><p>x&amp;y</p><!--c-->';
    const { sink } = parse(input, { onToken: (t) => seen.push(`${t.type}:${t.raw}`) });
    // `<b>` inside <title> is RCDATA text: the title's start tag switched the mode before the next token.
    expect(seen).toEqual(['startTag:<title>', 'text:<b>', 'endTag:</title>', 'startTag:<p>', 'text:x&amp;y', 'endTag:</p>', 'comment:<!--c-->']);
    expect(seen.map((s) => s.slice(s.indexOf(':') + 1)).join('')).toBe(input);
    expect(find(sink.document, 'title').children[0]!.data).toBe('<b>');
    expect(() => new Parser(new TestSink(), { onToken: 1 as never })).toThrow(/onToken must be a function/);
  });

  it('honours the scripting flag for <noscript>', () => {
    const on = parse('<head><noscript><link></noscript>', { scripting: true });
    expect(dump(find(on.sink.document, 'noscript'))).toEqual(['"<link>"']);
    const off = parse('<head><noscript><link></noscript>', { scripting: false });
    expect(dump(find(off.sink.document, 'noscript'))).toEqual(['link']);
  });

  it('reports tree-construction parse errors with offsets, lines and columns', () => {
    const errors: { code: string; offset: number }[] = [];
    parse('<p></div>', { onParseError: (e) => errors.push(e) });
    expect(errors.map((e) => e.code)).toContain('missing-doctype');
    expect(errors).toContainEqual({ code: 'unexpected-end-tag', offset: 3, line: 1, col: 4 });
  });

  it('sets the document mode from the DOCTYPE', () => {
    expect(parse('<!DOCTYPE html>').sink.mode).toBe('no-quirks');
    expect(parse('x').sink.mode).toBe('quirks');
    expect(parse('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">').sink.mode).toBe('limited-quirks');
    expect(parse('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">').sink.mode).toBe('quirks');
  });

  it('runs scripts at </script> and reads what they write before the rest of the input', () => {
    const seen: string[] = [];
    const { sink } = parse('<p>1<script>a</script>4</p>', {
      onScript(script, control) {
        seen.push(script.children.map((c) => c.data).join(''));
        if (seen.length === 1) control.write('2<script>b</script>');
        else control.write('3');
      },
    });
    expect(seen).toEqual(['a', 'b']);
    expect(dump(find(sink.document, 'p'))).toEqual(['"1"', 'script', '  "a"', '"2"', 'script', '  "b"', '"34"']);
  });

  it('lets go of the parser at end(): a script control kept past it throws, naming why', () => {
    // The feedback is cut at end() so a finished document is not kept reachable (see TokenizerForwarder).
    let kept: { write(markup: string): void } | null = null;
    parse('<script>a</script>', { onScript: (_script, control) => void (kept = control) });
    expect(kept).not.toBeNull();
    expect(() => kept!.write('<p>')).toThrow(/the parser has ended; document.write .* after end\(\)/);
  });

  it('does not run the scripts of a fragment', () => {
    const sink = new TestSink();
    let ran = 0;
    const parser = new Parser(sink, { fragmentContext: { localName: 'div', namespace: NS.HTML }, onScript: () => ran++ });
    parser.write('<script>x</script><svg><script/></svg>');
    parser.end();
    expect(ran).toBe(0);
    expect(dump(sink.document)).toEqual(['html', '  script', '    "x"', '  svg', '    script']);
    let inDocument = 0;
    parse('<script>x</script><svg><script/><script>y</script></svg>', { onScript: () => inDocument++ });
    expect(inDocument).toBe(3);
  });

  it('parses fragments into a root html element, in the context given', () => {
    const sink = new TestSink();
    const parser = new Parser(sink, { fragmentContext: { localName: 'tr', namespace: NS.HTML } });
    parser.write('<td>a<td>b');
    parser.end();
    expect(dump(sink.document)).toEqual(['html', '  td', '    "a"', '  td', '    "b"']);
    const inSvg = new TestSink();
    const svgParser = new Parser(inSvg, { fragmentContext: { localName: 'svg', namespace: NS.SVG } });
    svgParser.write('<foreignobject><div>x</div></foreignobject><![CDATA[y]]>');
    svgParser.end();
    expect(dump(inSvg.document)).toEqual(['html', '  foreignObject', '    div', '      "x"', '  "y"']);
    const quirky = new TestSink();
    const quirkyParser = new Parser(quirky, { fragmentContext: { localName: 'p', namespace: NS.HTML, documentMode: 'quirks' } });
    quirkyParser.write('a<table></table>');
    quirkyParser.end();
    expect(dump(quirky.document)).toEqual(['html', '  "a"', '  table']);
  });

  it('starts fragments in the tokenizer state the context asks for', () => {
    for (const [context, html, expected] of [
      ['title', '<b>&amp;</b>', ['html', '  "<b>&</b>"']],
      ['style', '<b>&amp;</b>', ['html', '  "<b>&amp;</b>"']],
      ['script', '<!--</script>-->', ['html', '  "<!--</script>-->"']],
      ['plaintext', '</plaintext>', ['html', '  "</plaintext>"']],
      ['div', '<b>x</b>', ['html', '  b', '    "x"']],
    ] as const) {
      const sink = new TestSink();
      const parser = new Parser(sink, { fragmentContext: { localName: context, namespace: NS.HTML } });
      parser.write(html);
      parser.end();
      expect(dump(sink.document), context).toEqual(expected);
    }
  });

  it('throws on misuse, naming what was wrong', () => {
    const { parser } = parse('x');
    expect(() => parser.write('y')).toThrow(/write\(\) cannot be called after end\(\)/);
    expect(() => parser.end()).toThrow(/already ended/);
    expect(() => parser.treeBuilder.processEnd()).toThrow(/processEnd\(\) was called twice/);
    const sink = new TestSink();
    expect(() => new Parser(sink, { fragmentContext: { localName: 'x', namespace: 'urn:nope' as ElementNamespace } })).toThrow(/namespace/);
    expect(() => new Parser(sink, { fragmentContext: { localName: '', namespace: NS.HTML } })).toThrow(/localName/);
  });

  it('hands whole text tokens to a sink that takes them, and the tree is the one insertText builds', () => {
    /** Turns each whole text token back into the insertText call it stands for, and counts them. */
    class TokenTextSink extends TestSink {
      tokens = 0;
      readonly unread: string[] = [];
      insertTextToken(parent: TestNode, token: TextToken): void {
        this.tokens++;
        this.log.push(`text ${parent.name}`);
        // The tree builder has not decoded the characters to get here (it may later, for the
        // frameset-ok flag, while that is still set).
        if ((token as unknown as { decoded: unknown }).decoded === undefined) this.unread.push(token.raw);
        this.insertText(parent, token.value.replaceAll('\0', ''), null, { start: token.start, end: token.start + token.raw.length });
      }
    }
    const inputs = [
      '<p>One <b>two</b> three &amp; four\r\n</p>',
      '<p>a\0b</p>\0<b>c</p>\0\0d\0', // "in body" drops NULs (the sink does); NULs alone insert nothing
      '<div> \0 <frameset>', // NULs and whitespace keep frameset-ok "ok": a frameset replaces the body
      '<title>x&lt;y</title><style>a\0</style><script>1 < 2</script><textarea>\nz</textarea>',
      '<pre>\n\nx</pre>', // the first newline after <pre> is skipped: not a whole token
      '<table>x<tr>y</table>', // foster-parented text
      '<b><p>x</b>y', // the adoption agency, then reconstruction before "y"
      '<template>t<b>u</b></template>v',
      '<svg>w<foreignObject>x</foreignObject></svg><math><mi>y</mi></math>',
      '<frameset></frameset>x ',
      ' \n<html> <head> </head> <body>  z',
      '<plaintext>a\0b&amp;',
      // "in cell", "in caption" and "in template" take "in body"'s rules for text; "in head" and "after head" insert whitespace.
      '<table><caption>c\0<i>d</caption><tr><td>\0e<b>f</td><td>g\0</table>h',
      '<template>\0t<b>u</template><template><td>v</template>',
      '<head> <meta> \r\n <title>t</title>\n</head>\n <body>x',
      '<head> x</head> <!-- --> y',
    ];
    for (const html of inputs) {
      const plain = parse(html).sink;
      const sink = new TokenTextSink();
      new Parser(sink).write(html).end();
      expect(dump(sink.document), html).toEqual(dump(plain.document));
      const texts = (root: TestNode): string[] => {
        const out: string[] = [];
        const pending = [root];
        while (pending.length > 0) {
          const n = pending.pop()!;
          if (n.kind === 'text') out.push(`${JSON.stringify(n.data)} ${n.location!.start}-${n.location!.end}`);
          pending.push(...n.children, ...(n.contents ? [n.contents] : []));
        }
        return out;
      };
      expect(texts(sink.document), html).toEqual(texts(plain.document));
    }
    // And on every html5lib tree-construction document (when the tests are there; the conformance suite
    // fails without them under CI).
    const dir = treeConstructionDir();
    let compared = 0;
    if (dir !== null) {
      for (const tests of readDatFiles(dir).values()) {
        for (const test of tests) {
          if (test.fragment !== null) continue;
          const options = { scripting: test.scripting ?? true };
          const plain = parse(test.data, options).sink;
          const sink = new TokenTextSink();
          new Parser(sink, options).write(test.data).end();
          expect(dump(sink.document), test.data).toEqual(dump(plain.document));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(1000);
    }
    // Taken where text goes whole to the current node: in body and in the text modes, not in foreign content.
    const sink = new TokenTextSink();
    new Parser(sink).write('<p>x</p>y<b>z</b><script>s</script><svg>f</svg>').end();
    expect(sink.tokens).toBe(4);
    expect(sink.unread).toEqual(['x', 'y', 'z', 's']);
    // And in the modes whose rules for text are "in body"'s ("in cell", "in caption", "in template"), and
    // for whitespace "in head" and "after head".
    const more = new TokenTextSink();
    new Parser(more).write('<head> <meta>\n</head> <table><caption>c</caption><tr><td>d</td></tr></table><template>t</template>').end();
    expect(more.unread).toEqual([' ', '\n', ' ', 'c', 'd', 't']);
  });

  it('hands raw attributes to a sink that takes them, only where the rules never read them', () => {
    /** Records which elements came raw; decodes them to compare with what createElement would get. */
    class RawSink extends TestSink {
      readonly raw: string[] = [];
      createElementWithRawAttributes(localName: string, rawTag: string, location: SourceLocation | null): TestNode {
        this.raw.push(localName);
        return this.createElement(localName, NS.HTML, attributesOfRawTag(rawTag), location);
      }
    }
    const html =
      '<div id=a CLASS="b c" data-x=&amp;><p>x<a href=y>y</a><b class=z>z</b><img src=i.png alt="">' +
      '<input type=hidden name=h><span title=t></span><br><svg viewBox="0 0 1 1"><path d=M0></path></svg>';
    const raw = new RawSink();
    new Parser(raw).write(html).end();
    const eager = parse(html).sink;
    // The same tree, with the same attributes, either way.
    const attributesOf = (root: TestNode): string[] => {
      const out: string[] = [];
      const pending = [root];
      while (pending.length > 0) {
        const n = pending.shift()!;
        if (n.kind === 'element') out.push(`${n.name} ${JSON.stringify(n.attributes!.map((a) => [a.name, a.value, a.namespace, a.prefix, a.localName]))}`);
        pending.push(...n.children);
      }
      return out;
    };
    expect(attributesOf(raw.document)).toEqual(attributesOf(eager.document));
    expect(dump(raw.document)).toEqual(dump(eager.document));
    // Raw: HTML elements with attributes the rules did not decode, formatting elements (a, b) included,
    // and <input> (the rules look its type up in the raw tag alone). Not: foreign elements (svg, path),
    // elements without attributes (p, br).
    expect(raw.raw).toEqual(['div', 'a', 'b', 'img', 'input', 'span']);
    // A formatting element's record decodes its raw tag when the rules copy it: reconstruction, the
    // adoption agency, and Noah's Ark comparing attributes.
    const copies = '<p><b class=z>x<p>y</p><a href=1><div>d</a><i a=1><i a=1><i a=2><i a=1><i a=1>w';
    const rawCopies = new RawSink();
    new Parser(rawCopies).write(copies).end();
    expect(attributesOf(rawCopies.document)).toEqual(attributesOf(parse(copies).sink.document));
    expect(dump(rawCopies.document)).toEqual(dump(parse(copies).sink.document));
  });

  it('survives a 100,000-deep document and 10,000 nested templates without recursion', () => {
    const deep = parse('<div>'.repeat(100_000));
    expect(find(deep.sink.document, 'body').children).toHaveLength(1);
    const templates = parse('<template>'.repeat(10_000));
    expect(find(templates.sink.document, 'template').popped).toBe(1);
  });
});
