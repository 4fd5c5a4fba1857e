/**
 * What sluice's rewriter does where a tree changes the answer (implied elements, implicit ends, foster
 * parenting, templates), how inserted text is escaped for its context, and how misuse is reported.
 */
import { describe, expect, it } from 'vitest';
import { HTMLRewriter, parseSelector } from '@sluice/rewriter';
import { parse } from '@sluice/dom';
import { runRewriter } from './helpers/run.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
async function rw(input: string | string[], setup: (r: HTMLRewriter, log: unknown[]) => void): Promise<{ out: string; log: unknown[] }> {
  const log: unknown[] = [];
  const { out } = await runRewriter((r) => setup(r, log), typeof input === 'string' ? [input] : input);
  return { out, log };
}

/** The reparsed output's document element, serialized: where a browser puts what the rewriter wrote. */
function reparsed(html: string): string {
  return parse(html).documentElement!.outerHTML;
}

describe('implied elements', () => {
  it('element handlers fire on elements without a start tag, which selectors also see as ancestors', async () => {
    const { out, log } = await rw('<table><tr><td>x</td></tr></table>', (r, log) => {
      r.on('html, head, body, tbody', { element(e) { log.push(`element ${e.tagName} implied=${e.implied}`); } });
      r.on('tbody > tr', { element(e) { log.push(`tr under tbody: ${e.tagName} implied=${e.implied}`); } });
      r.on('body', { text(t) { if (t.text) log.push(`text in body: ${t.text}`); } });
    });
    expect(log).toEqual([
      'element html implied=true',
      'element head implied=true',
      'element body implied=true',
      'element tbody implied=true',
      'tr under tbody: tr implied=false',
      'text in body: x',
    ]);
    expect(out).toBe('<table><tr><td>x</td></tr></table>');
  });

  it('<table><tr><td>x</table>: tbody fires once, implied', async () => {
    const { log } = await rw('<table><tr><td>x</table>', (r, log) => r.on('tbody', { element(e) { log.push([e.tagName, e.implied, e.sourceOffset, [...e.attributes]]); } }));
    // sourceOffset: the token that made it (<tr>).
    expect(log).toEqual([['tbody', true, 7, []]]);
  });

  it('text alone implies html, head and body, in that order', async () => {
    const { out, log } = await rw('hello', (r, log) => r.on('*', { element(e) { log.push([e.tagName, e.implied, e.sourceOffset]); } }));
    expect(log).toEqual([['html', true, 0], ['head', true, 0], ['body', true, 0]]);
    expect(out).toBe('hello');
  });

  it('explicit html/head/body start tags fire, not implied', async () => {
    const { log } = await rw('<html><head></head><body></body></html>', (r, log) => r.on('html, head, body', { element(e) { log.push([e.tagName, e.implied]); } }));
    expect(log).toEqual([['html', false], ['head', false], ['body', false]]);
  });

  it('a reconstructed formatting element fires, with the attributes of the one it copies', async () => {
    const { out, log } = await rw('<p><b class=c id=i>x<p>y', (r, log) =>
      r.on('b', { element(e) { log.push([e.implied, e.sourceOffset, e.getAttribute('class'), e.hasAttribute('id'), [...e.attributes]]); } }),
    );
    expect(log).toEqual([
      [false, 3, 'c', true, [['class', 'c'], ['id', 'i']]],
      [true, 23, 'c', true, [['class', 'c'], ['id', 'i']]], // made while the text "y" was processed
    ]);
    expect(out).toBe('<p><b class=c id=i>x<p>y');
  });

  it('adoption agency copies fire, with the original\'s attributes; content given to a copy is refused', async () => {
    const { out, log } = await rw('<a href=1><p>x</a>y', (r, log) => r.on('a', { element(e) { log.push([e.implied, e.getAttribute('href')]); } }));
    expect(log).toEqual([[false, '1'], [true, '1']]);
    expect(out).toBe('<a href=1><p>x</a>y');
    // A browser makes the copy from the original's start tag: no markup can give the copy content of its own.
    await expect(rw('<a href=1><p>x</a>y', (r) => r.on('a', { element(e) { if (e.implied) e.append('[copy]'); } }))).rejects.toThrow(
      /the <a> the parser makes at offset 14 is a copy of an earlier <a> .*append\(\) cannot be written for it/,
    );
  });

  it('</br> is an implied <br>, and so is the <p> of a stray </p>', async () => {
    const { out, log } = await rw('<p>a</p>2</br>3</p>4', (r, log) => r.on('br, p', { element(e) { log.push([e.tagName, e.implied, e.sourceOffset]); } }));
    expect(log).toEqual([['p', false, 0], ['br', true, 9], ['p', true, 15]]);
    expect(out).toBe('<p>a</p>2</br>3</p>4');
  });

  it('not in template contents', async () => {
    const { log } = await rw('<template><table><tr><td>x</td></tr></table></template>', (r, log) => r.on('*', { element(e) { log.push([e.tagName, e.implied]); } }));
    // (The template is in <head>; the body is made at the end of the input.)
    expect(log).toEqual([['html', true], ['head', true], ['template', false], ['body', true]]);
  });

  it('before/prepend write at the start, append/after at the end: an implied tbody', async () => {
    const input = '<table><tr><td>x</table>';
    const { out } = await rw(input, (r) =>
      r.on('tbody', {
        element(e) {
          e.after('<tfoot></tfoot>', { html: true });
          e.append('<tr><td>A</td></tr>', { html: true });
          e.prepend('<tr><td>P</td></tr>', { html: true });
          e.before('<caption>B</caption>', { html: true });
        },
      }),
    );
    // The rows still open where the tbody ends are closed before the appended row, and the tbody before
    // what comes after it: a browser puts them where the handler did (alignment.ts).
    expect(out).toBe('<table><caption>B</caption><tr><td>P</td></tr><tr><td>x</td></tr><tr><td>A</td></tr></tbody><tfoot></tfoot></table>');
    expect(reparsed(out)).toBe(
      '<html><head></head><body><table><caption>B</caption><tbody><tr><td>P</td></tr><tr><td>x</td></tr><tr><td>A</td></tr></tbody><tfoot></tfoot></table></body></html>',
    );
  });

  it('an implied body: prepend at its start, append at its end — before </body> when there is one', async () => {
    const setup = (r: HTMLRewriter) =>
      r.on('body', { element(e) { e.prepend('<header>P</header>', { html: true }); e.append('<footer>A</footer>', { html: true }); } });
    const a = await rw('<title>t</title>\n<p>x</p>\n', setup);
    expect(a.out).toBe('<title>t</title>\n<header>P</header><p>x</p>\n<footer>A</footer>');
    expect(reparsed(a.out)).toBe('<html><head><title>t</title>\n</head><body><header>P</header><p>x</p>\n<footer>A</footer></body></html>');
    const b = await rw('<p>x</p></body></html>', setup);
    expect(b.out).toBe('<header>P</header><p>x</p><footer>A</footer></body></html>');
  });

  it('whitespace the tree builder puts in <head> stays before an implied body', async () => {
    const { out } = await rw('<html><head>  x', (r) => r.on('body', { element(e) { e.before('<!--B-->', { html: true }); e.prepend('[P]'); } }));
    expect(out).toBe('<html><head>  <!--B-->[P]x');
    expect(reparsed(out)).toBe('<html><head>  <!--B--></head><body>[P]x</body></html>');
    // Text before the body would be the html element's child, which no markup makes: refused.
    await expect(rw('<html><head>  x', (r) => r.on('body', { element(e) { e.before('[B]'); } }))).rejects.toThrow(/the text "\[B\]" in the <html>/);
  });

  it('setAttribute on an implied body writes its start tag where it begins', async () => {
    const { out } = await rw('<title>t</title>\n<p>x</p>\n', (r) => r.on('body', { element(e) { e.setAttribute('class', 'x'); } }));
    expect(out).toBe('<title>t</title>\n<body class="x"><p>x</p>\n');
    expect(reparsed(out)).toBe('<html><head><title>t</title>\n</head><body class="x"><p>x</p>\n</body></html>');
    const text = await rw('hi', (r) => r.on('body', { element(e) { e.setAttribute('data-a', 'a"&b'); } }));
    expect(text.out).toBe('<body data-a="a&quot;&amp;b">hi');
  });

  it('a reconstructed copy of a formatting element is the browser\'s copy while it can be, and an explicit start tag when not', async () => {
    // Same change on the original and its copy: the copy comes from the rewritten start tag, nothing is added.
    const same = await rw('<p><b class=c>x<p>y', (r) => r.on('b', { element(e) { e.setAttribute('id', 'k'); } }));
    expect(same.out).toBe('<p><b class=c id="k">x<p>y');
    expect(parse(same.out).body!.innerHTML).toBe('<p><b class="c" id="k">x</b></p><p><b class="c" id="k">y</b></p>');
    // A copy that differs from the original as written: the browser's list no longer has the original
    // (an end tag takes it off, §13.2.6.4.7 step 4.4), and the copy is an explicit start tag.
    const own = await rw('<p><b class=c>x<p>y', (r) => r.on('b', { element(e) { if (e.implied) e.setAttribute('id', 'copy'); } }));
    expect(own.out).toBe('<p><b class=c>x<p></b><b class="c" id="copy">y');
    expect(parse(own.out).body!.innerHTML).toBe('<p><b class="c">x</b></p><p><b class="c" id="copy">y</b></p>');
    const original = await rw('<p><b class=c>x<p>y', (r) => r.on('b', { element(e) { if (!e.implied) e.removeAttribute('class'); } }));
    expect(parse(original.out).body!.innerHTML).toBe('<p><b>x</b></p><p><b class="c">y</b></p>');
    // An original removed with its content: the copy stays, written explicitly.
    const removed = await rw('<p><b>x<p>y', (r) => r.on('p:first-child', { element(e) { e.remove(); } }));
    expect(removed.out).toBe('<p><b>y');
    expect(parse(removed.out).body!.innerHTML).toBe('<p><b>y</b></p>');
    const kept = await rw('<p><b>x<p>y', (r) => r.on('b', { element(e) { e.removeAndKeepContent(); } }));
    expect(kept.out).toBe('<p>x<p>y');
  });

  it('remove() on an implied tbody removes the rows', async () => {
    const { out, log } = await rw('<table><tr><td>1</td></tr><tr><td>2</td></tr></table><p>after', (r, log) =>
      r.on('tbody', { element(e) { e.before('<!--[-->', { html: true }); e.after('<!--]-->', { html: true }); e.remove(); log.push(e.removed); } }),
    );
    expect(log).toEqual([true]);
    expect(out).toBe('<table><!--[--><!--]--></table><p>after');
    // (Text cannot be there: a parser puts text in a table before it. Refused.)
    await expect(rw('<table><tr><td>1</td></tr></table>', (r) => r.on('tbody', { element(e) { e.before('['); e.remove(); } }))).rejects.toThrow(/the text "\[" in the <table>/);
  });

  it('replace() and setInnerContent() on an implied tbody', async () => {
    const replaced = await rw('<table><tr><td>x</table>', (r) => r.on('tbody', { element(e) { e.replace('<caption>c</caption>', { html: true }); } }));
    expect(replaced.out).toBe('<table><caption>c</caption></table>');
    const inner = await rw('<table><tr><td>x</table>', (r) =>
      r.on('tbody', {
        element(e) {
          e.prepend('<tr><td>dropped</td></tr>', { html: true });
          e.setInnerContent('<tr><td>n</td></tr>', { html: true });
          e.append('<tr><td>z</td></tr>', { html: true });
        },
      }),
    );
    expect(inner.out).toBe('<table><tr><td>n</td></tr><tr><td>z</td></tr></table>');
    expect(reparsed(inner.out)).toBe('<html><head></head><body><table><tbody><tr><td>n</td></tr><tr><td>z</td></tr></tbody></table></body></html>');
  });

  it('removeAndKeepContent() on an implied element writes no start tag, materialized or not', async () => {
    const plain = await rw('<p>a<table><tr><td>x</table>', (r, log) => r.on('p', { element(e) { e.removeAndKeepContent(); log.push(e.removed); } }));
    expect(plain.out).toBe('a<table><tr><td>x</table>');
    expect(plain.log).toEqual([true]);
    // (The <p> a stray </p> makes in the body: its only tag is that end tag, which goes.)
    const implied = await rw('a</p>b', (r) => r.on('p', { element(e) { e.setAttribute('a', 'b'); e.removeAndKeepContent(); } }));
    expect(implied.out).toBe('ab');
    // A tbody, a body, cannot go: a browser makes them again around their content (tag-classes.ts).
    await expect(rw('<table><tr><td>x</table>', (r) => r.on('tbody', { element(e) { e.removeAndKeepContent(); } }))).rejects.toThrow(
      /removeAndKeepContent\(\) on the <tbody> .* cannot be written so that a browser builds the same tree/,
    );
    await expect(rw('x</body>y', (r) => r.on('body', { element(e) { e.removeAndKeepContent(); } }))).rejects.toThrow(/<body>/);
  });

  it('source on both sides of what is left out does not join (boundaries.ts)', async () => {
    // `<` + `<section>` + `x`: without the tag, `<x` would be a tag; `&not` + `in;` the reference `&notin;`.
    const tag = await rw('<<section>x</section>', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } }));
    expect(tag.out).toBe('<&#120;');
    expect(parse(tag.out).body!.textContent).toBe('<x');
    const reference = await rw('&not<b></b>in;', (r) => r.on('b', { element(e) { e.remove(); } }));
    expect(reference.out).toBe('&not&#105;n;');
    expect(parse(reference.out).body!.textContent).toBe('¬in;');
    // `\r` + `\n` would be one newline.
    const newline = await rw('a\r<b></b>\nz', (r) => r.on('b', { element(e) { e.remove(); } }));
    expect(parse(newline.out).body!.textContent).toBe('a\n\nz');
    // Nothing joins: copied as it was.
    expect((await rw('a<b>x</b>;', (r) => r.on('b', { element(e) { e.remove(); } }))).out).toBe('a;');
  });

  it('an end tag in removed content that takes a formatting element off the list is kept for the output (§13.2.6.4.7 step 4.4)', async () => {
    // Without the div's `</b>`, a browser would still have the <b> on its list and copy it around "y".
    const { out } = await rw('<p><b>x</p><div class=ad></b></div>y', (r) => r.on('div.ad', { element(e) { e.remove(); } }));
    expect(out).toBe('<p><b>x</p></b>y');
    expect(parse(out).body!.innerHTML).toBe('<p><b>x</b></p>y');
  });

  it('removeAndKeepContent() on an element still open when the parser took the one around it off the stack is refused', async () => {
    // `<a>` inside an `a` takes the outer one off the stack (§13.2.6.4.7) while the section stays open:
    // the copy made after the second <select> lands in the section, which without its tags is the outer
    // <a>'s content — which a browser reading the output no longer has open.
    await expect(
      rw('<a><section><select>x<a><select>y</section>', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } })),
    ).rejects.toThrow(/removeAndKeepContent\(\) on the <section> that ends at offset \d+ cannot be written so that a browser builds the same tree: the parser took the <a> around it off the stack/);
  });

  it('a copy whose original a written end tag took off the list is written: renamed <a> inside a copy (§13.2.4.3)', async () => {
    // The last <a> closes the copy of the first (written as <span>) and the <font> in it, which the
    // output closes with </font></span>; </font> takes the font off the browser's list, so the copy the
    // input's parser makes of it around the last <a> is written as a start tag.
    const { out } = await rw('<p><a><p><font><a>', (r) => r.on('a', { element(e) { e.tagName = 'span'; } }));
    expect(out).toBe('<p><span></span><p><span><font></font></span><font><span>');
    expect(parse(out).body!.innerHTML).toBe('<p><span></span></p><p><span><font></font></span><font><span></span></font></p>');
  });

  it('an end tag that takes a renamed formatting element off the list after it closed is written under the new name', async () => {
    // `<li>` closed the font; `</font>` then takes its entry off the list (§13.2.6.4.7, the adoption
    // agency algorithm's step 4.4). As `</font>` the output's parser would keep the u's entry and copy
    // a <u> into the <b>; `</u>` takes it off.
    const { out } = await rw('<li><font><li></font><b>', (r) => r.on('font', { element(e) { e.tagName = 'u'; } }));
    expect(out).toBe('<li><u><li></u><b>');
    expect(parse(out).body!.innerHTML).toBe('<li><u></u></li><li><b></b></li>');
    // Where the list has another <strong> after it, `</strong>` would take that one off: refused.
    await expect(rw('<li><b><strong><li></b>x', (r) => r.on('li > b', { element(e) { e.tagName = 'strong'; } }))).rejects.toThrow(
      /the end tag that takes the <b> renamed <strong> off the list of active formatting elements cannot be written .* another <strong>/,
    );
  });

  it('Noah\'s Ark counts the tags as written: refused where a browser reading the output would drop another entry', async () => {
    // The fourth <b> drops the first from the list (the earliest of three equal ones, §13.2.4.3); a
    // browser reading <strong>, or <b x="1">, for it counts only three b's, keeps it, and copies it before x.
    await expect(rw('<p><b><b><b><b></p>x', (r) => r.on('p > b', { element(e) { e.tagName = 'strong'; } }))).rejects.toThrow(
      /the <b> at offset 12 cannot be written .*drops the earliest of three equal <b> \(renamed <strong>\) \(Noah's Ark, HTML §13.2.4.3\), and a browser reading the output, which compares the tags as written, would drop none/,
    );
    await expect(rw('<p><b><b><b><b></p>x', (r) => r.on('p > b', { element(e) { e.setAttribute('x', '1'); } }))).rejects.toThrow(/would drop none/);
    // The other way: a rename that makes three equal, where the input's parser has two.
    await expect(rw('<p><b><b><u><b></p>x', (r) => r.on('u', { element(e) { e.tagName = 'b'; } }))).rejects.toThrow(/the parser drops no entry .* would drop a <b>/);
    // The same change on every one: both parsers drop the first.
    const { out } = await rw('<p><b><b><b><b></p>x', (r) => r.on('b', { element(e) { e.tagName = 'u'; } }));
    expect(out).toBe('<p><u><u><u><u></p>x');
  });

  it('a copy written explicitly under a name that is not a formatting element\'s leaves the output\'s list: its copies are explicit too', async () => {
    // The a (renamed span) is copied into the div as <span href="1">, which a browser does not put in its
    // list; the copy the last <b> reconstructs of that copy must be written too.
    const { out } = await rw('<p><a href=1><div><b></div><b>', (r) => r.on('a', { element(e) { e.tagName = 'span'; } }));
    expect(parse(out).body!.innerHTML).toBe('<p><span href="1"></span></p><div><span href="1"><b></b></span></div><span href="1"><b><b></b></b></span>');
  });

  it('a left-out tag\'s end tags come before an end tag that takes a list entry off: the output\'s list is read after them', async () => {
    // The unwrapped section closes the inner font and the p; written as </font></p>, they take the inner
    // font off the output's list, and the input's </font> (step 4.4: takes that entry off) must not be
    // written — in a browser it would run the adoption agency algorithm on the outer font and move the center.
    const { out } = await rw('<font><center><p><font><section></font>x', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } }));
    expect(parse(out).body!.innerHTML).toBe('<font><center><p><font></font></p>x</center></font>');
  });

  it('document-level source inside removed content comes after what the token before it did: <svg><dd><html>', async () => {
    // The removed dd broke out of the svg; the <html> start tag (its attributes go to the html element) is
    // written even inside removed content, and the output's parser must read it outside the svg.
    for (const name of ['svg', 'math']) {
      const { out } = await rw(`<${name}><dd><html a=1>x`, (r) => r.on('dd', { element(e) { e.remove(); } }));
      expect(out).toBe(`<${name}></${name}><html a=1>`);
      const doc = parse(out);
      expect(doc.documentElement!.getAttribute('a')).toBe('1');
      expect(doc.body!.innerHTML).toBe(`<${name}></${name}>`);
    }
  });

  it('a start tag that only closes an element closed explicitly already is left out: <select><select> with after()', async () => {
    // The second <select> closes the first and makes nothing (§13.2.6.4.7); the first's `after` content
    // needed its </select> written, and the tag then would make a second select.
    const { out } = await rw('<select><select>b', (r) => r.on('select', { element(e) { e.after('[f]'); } }));
    expect(out).toBe('<select></select>[f]b');
    expect(parse(out).body!.innerHTML).toBe('<select></select>[f]b');
  });

  it('table text waits when the copies placed with it are of elements the output left out: they are written before it', async () => {
    // The b is inside the removed div; the text's reconstruction copies it (foster-parented before the
    // table). The output's parser, without that b in its list, makes no copy unless one is written.
    for (const input of ['<table><div><b></div>x', '<table><div><b><tr>x']) {
      const { out } = await rw(input, (r) => r.on('div', { element(e) { e.remove(); } }));
      expect(out).toBe(input.startsWith('<table><div><b></div>') ? '<table><b>x' : '<table><tr><b>x');
      expect(parse(out).body!.innerHTML).toBe(parse(input).body!.innerHTML.replace('<div><b></b></div>', ''));
    }
  });

  it('content after an element that outlived the one around it is refused: <a><table><a> with after() on the table', async () => {
    // The second <a> takes the first off the stack while the table stays open in it (§13.2.6.4.7): after
    // the table is inside that a in the tree, where no markup can put content any more.
    await expect(rw('<a href=1><table><a href=1>', (r) => r.on('table', { element(e) { e.after('[f]'); } }))).rejects.toThrow(/content after the <table>.*cannot be written so that a browser builds the same tree/);
  });

  it('an end tag inside removed content that takes an entry off comes after what the removed element\'s tag owed', async () => {
    // The removed dd closes the p and what is in it; its </b></em></p> take the inner em off the output's
    // list, so the </em> inside the dd (which takes that entry off the input's list) is not written:
    // written before them, it ran the adoption agency algorithm on the open em and moved the h1.
    // (With handlers on the formatting elements: their ops then decide what the output's list holds.)
    const input = '<em><h1><p><em><b><dd></em></b>';
    const { out } = await rw(input, (r) =>
      r
        .on('em, b', { element(e) { e.setAttribute('data-f', ''); } })
        .on('h1, p', { element(e) { e.setAttribute('data-m', ''); } })
        .on('h1', { element(e) { e.prepend('[').append(']'); } })
        .on('dd', { element(e) { e.remove(); } }),
    );
    expect(parse(out).body!.innerHTML).toBe('<em data-f=""><h1 data-m="">[<p data-m=""><em data-f=""><b data-f=""></b></em></p>]</h1></em>');
  });

  it('a copy the output\'s parser makes of a renamed element is closed under the new name', async () => {
    // The second dd's copy of the font (renamed u) is a u to a browser; closed explicitly for the content
    // after the div, its end tag is </u> (</font> would leave it open, and "[f]" inside a copy of it).
    const { out } = await rw('<div><dd><font><dd><b>', (r) => r.on('font', { element(e) { e.tagName = 'u'; } }).on('div', { element(e) { e.after('[f]'); } }));
    expect(out).toBe('<div><dd><u><dd><b></b></u></dd></div>[f]');
    expect(parse(out).body!.innerHTML).toBe('<div><dd><u></u></dd><dd><u><b></b></u></dd></div>[f]');
  });

  it('text a colgroup splits (whitespace in it, the rest for the table) is split for text handlers too, through character references', async () => {
    // The table's text handler removes what is inside the table: the space in the colgroup, not the z,
    // which the parser foster-parents before the table.
    for (const space of [' ', '&#32;', '&#x20;&NewLine;']) {
      const seen: string[] = [];
      const { out } = await rw(`<table><colgroup>${space}z`, (r) => r.on('table', { text(t) { seen.push(t.text); t.remove(); } }));
      expect(out).toBe('<table><colgroup>z');
      expect(seen).toEqual([space, '']);
      expect(parse(out).body!.innerHTML).toBe('z<table><colgroup></colgroup></table>');
    }
  });

  it('table text that closed a colgroup and waits for its placing is written as it was: no </colgroup> before it (seed 5757)', async () => {
    // `x` closes the implied colgroup (an end handler runs for it) and waits "in table text"; at the end
    // the parser foster-parents it with a copy of the b. The copy's op came first and wrote what the
    // text's own token did — `</colgroup>` — which a parser reading `x` does by itself.
    const setup = (r: HTMLRewriter) => r.on('*', { element(el) { if (el.canHaveContent) el.onEndTag(() => {}); }, text() {} });
    for (const input of ['<table><b><col>x', '<table><b><col>x<tr>', '<table><b><colgroup>x</table>y']) {
      const { out } = await rw(input, setup);
      expect(out).toBe(input);
    }
    // With the text removed, the copy made for it stays (it is a node of the input's tree), empty.
    const { out } = await rw('<table><b><col>x<tr>', (r) => r.on('*', { element(el) { if (el.canHaveContent) el.onEndTag(() => {}); }, text(t) { if (t.text === 'x') t.remove(); } }));
    expect(parse(out).body!.innerHTML).toBe('<b></b><b></b><table><colgroup><col></colgroup><tbody><tr></tr></tbody></table>');
  });

  it('after </html>, an end tag replaced by the start tag of the element it made needs no </caption>: that tag takes the parser back into the body', async () => {
    // (`</br>` makes a <br>, `</p>` with no p open a <p>; with attributes set, their start tags replace or
    // precede the end tag, and read after the body they take the parser back into it themselves.)
    const setup = (r: HTMLRewriter) => r.on('br, p', { element(e) { if (e.implied) e.setAttribute('a', '1'); } });
    expect((await rw('</html></br>', setup)).out).toBe('</html><br a="1">');
    expect((await rw('</html></p>x', setup)).out).toBe('</html><p a="1"></p>x');
  });

  it('a copy of <nobr> that would be written while a nobr is in scope is refused', async () => {
    // Written as a start tag, <nobr> would run the adoption agency algorithm on the outer nobr.
    await expect(
      rw('<nobr><table><tr><td></td><i><h1><nobr></table><p>x', (r) => r.on('h1', { element(e) { e.append(']'); } })),
    ).rejects.toThrow(/the copy of <nobr> the parser makes here cannot be written/);
  });

  it('a heading\'s rule looks at the current node after closing a <p>: refused where that node is left out', async () => {
    // <h1> closes the <p>, then the <section>'s h1 would be the current node without the section's tags.
    await expect(
      rw('<h1><section><p><h1>x', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } })),
    ).rejects.toThrow(/the start tag at offset 16 cannot be written .* looks at the <section>/);
    // Where the node below the <p> is in the output, nothing to refuse.
    const { out } = await rw('<h1><div><section><p><h1>x', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } }));
    expect(parse(out).body!.innerHTML).toBe('<h1><div><p></p><h1>x</h1></div></h1>');
  });

  it('a start tag that closes removed content first is checked as outside it: breaking out of foreign content', async () => {
    // <h1> pops the svg's x (removed) and the svg, then looks at the current node: the span, a heading
    // in the output. (The check ran while the x was still open, and was skipped as inside it.)
    const change = (r: HTMLRewriter) => {
      r.on('x', { element(e) { e.remove(); } });
      r.on('span', { element(e) { e.tagName = 'h2'; } });
    };
    await expect(rw('<span><svg><x><h1>', change)).rejects.toThrow(/the start tag at offset 14 cannot be written .* looks at the <span>, which the output names <h2>/);
    // Inside the removed element, the tag is not in the output: nothing to compare.
    const { out } = await rw('<span><x><h1>y</h1></x>z', change);
    expect(out).toBe('<h2>z');
  });

  it('an <option> in a <select> closes what implies its end: refused where the output would close more', async () => {
    // Without the section's tags, "generate implied end tags" would close the <li> too.
    await expect(
      rw('<select><li><section><option>', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } })),
    ).rejects.toThrow(/the <option> at offset 21 cannot be written .* would close the <li>/);
    const { out } = await rw('<select><section><li><option>', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } }));
    expect(parse(out).body!.innerHTML).toBe('<select><li></li><option></option></select>');
  });

  it('a <select> that only closes the select in scope is left out where the output has no such select', async () => {
    // §13.2.6.4.7 "select": with a select in scope the tag closes it and is ignored; a browser without
    // that select (removed here) would make one.
    for (const [input, want] of [
      ['<select><select>x', 'x'],
      ['<div><select><select>x', '<div>x</div>'],
      ['<select><b><select>x', '<b>x</b>'],
    ]) {
      const { out } = await rw(input!, (r) => r.on('select', { element(e) { e.remove(); } }));
      expect(parse(out).body!.innerHTML, input).toBe(want);
    }
    // Where the output has the select, the tag is copied.
    const { out } = await rw('<select><option><select>x', (r) => r.on('option', { element(e) { e.remove(); } }));
    expect(out).toBe('<select><select>x');
  });

  it('content the parser puts in an element that outlived a removed one around it is removed too', async () => {
    // The second <a> takes the first, removed, off the stack (§13.2.6.4.7 "a") while the select in it
    // stays open: what goes into the select after that is still inside the removed <a>.
    for (const input of ['<a href=1><select><a href=1><select>', '<a><select><a>y</a>z', '<a><select><a><option>z', '<a><select><a>y<option>z</select>w']) {
      const { out } = await rw(input, (r) => r.on('a', { element(e) { e.remove(); } }));
      expect(parse(out).body!.innerHTML, input).toBe('');
    }
  });

  it('text written where a foster-parented element was ends its run of table text: the whitespace the table keeps stays there', async () => {
    // `</p>` in a table makes a foster-parented p (§13.2.6.4.9, "anything else"); text in its place is
    // table text to a parser, which would take the table's " " with it. `</caption>`, which every table
    // insertion mode ignores, ends the run (found by a random seed).
    const replaced = await rw('<table></p> ', (r) => r.on('p', { element(e) { e.replace('[r]'); } }));
    expect(replaced.out).toBe('<table>[r]</caption> ');
    expect(parse(replaced.out).body!.innerHTML).toBe('[r]<table> </table>');
    const after = await rw('<table><tr><p>x</p> <td>', (r) => r.on('p', { element(e) { e.after('[a]'); } }));
    expect(parse(after.out).body!.innerHTML).toBe('<p>x</p>[a]<table><tbody><tr> <td></td></tr></tbody></table>');
  });

  it('an end tag after </html> that the output leaves out still takes its parser back into the body', async () => {
    // `</i>` (ignored in the body) and `</section>` take the parser from after the body back into it,
    // so the comment goes into the body; left out, the output's parser would put it in the document.
    const unwrap = (r: HTMLRewriter) => r.on('section', { element(e) { e.removeAndKeepContent(); } });
    for (const input of ['<section></html></i><!--c-->', '<section></body></i><!--c-->', '<section></html></section><!--c-->']) {
      const { out } = await rw(input, unwrap);
      expect(out).toMatch(/<\/caption><!--c-->$/);
      expect(parse(out).body!.innerHTML).toBe('<!--c-->');
    }
    // Written as it is, the tag does that itself: nothing is added.
    expect((await rw('<section></html></i><!--c-->', (r) => r.on('section', { element(e) { e.setAttribute('x', ''); } }))).out).toBe('<section x=""></html></i><!--c-->');
  });

  it('a line feed right after <pre>, <listing> or <textarea> stays ignored, or kept, as the input has it', async () => {
    // (§13.2.6.4.7: a parser ignores a line feed token right after the start tag.) Something left out
    // between the tag and a line feed the input keeps: a line feed is written first, for the output's
    // parser to ignore.
    const cases: [string, (r: HTMLRewriter) => void, string][] = [
      ['<pre><x></x>\nA', (r) => r.on('x', { element(e) { e.remove(); } }), '<pre>\n\nA'],
      ['<pre><!--c-->\nA', (r) => r.onDocument({ comments(c) { c.remove(); } }), '<pre>\n\nA'],
      ['<b><pre></i>\r\nA', (r) => r.on('b', { element(e) { e.tagName = 'x-b'; } }), '<x-b><pre>\n\r\nA'],
      // Content at the start: the line feed the input ignored is left out (it would follow the content).
      ['<pre>\n\nA', (r) => r.on('pre', { element(e) { e.prepend('['); } }), '<pre>[\nA'],
      ['<listing>\r\nA', (r) => r.on('listing', { element(e) { e.prepend('['); } }), '<listing>[A'],
      // Content that starts with a line feed: one is written before it.
      ['<pre>A', (r) => r.on('pre', { element(e) { e.prepend('\n['); } }), '<pre>\n\n[A'],
      ['<textarea>\nA</textarea>', (r) => r.on('textarea', { element(e) { e.setInnerContent('\nB'); } }), '<textarea>\n\nB</textarea>'],
    ];
    for (const [input, handlers, want] of cases) {
      const { out } = await rw(input, handlers);
      expect(out).toBe(want);
    }
    expect(parse('<pre>\n\n[A').body!.firstChild!.textContent).toBe('\n[A');
    // Nothing changed next to the tag: copied as it is.
    expect((await rw('<pre>\nA', (r) => r.on('pre', { element(e) { e.setAttribute('a', ''); } }))).out).toBe('<pre a="">\nA');
  });

  it('removing an element whose start tag takes the parser back into the body after </html> is refused', async () => {
    // Without the <section>'s tag the comment would be the document's, after the html element.
    await expect(
      rw('</html><section><!--c-->', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } })),
    ).rejects.toThrow(/removeAndKeepContent\(\) on the <section> at offset 7 cannot be written .* back into the body/);
    await expect(rw('</body><p>x</p><!--c-->', (r) => r.on('p', { element(e) { e.remove(); } }))).rejects.toThrow(/removing the <p> at offset 7/);
    // The next element is in the body already: nothing to refuse.
    const { out } = await rw('</html><p><section><!--c-->', (r) => r.on('section', { element(e) { e.removeAndKeepContent(); } }));
    expect(parse(out).body!.innerHTML).toBe('<p></p><!--c-->');
  });

  it('changing the tag name writes a start tag and an end tag', async () => {
    const { out } = await rw('<table><tr><td>1</td></tr></table>', (r) => r.on('tbody', { element(e) { e.tagName = 'thead'; e.setAttribute('id', 'h'); } }));
    // (thead and tbody are read alike: the </table> that closes the one closes the other, no end tag needed.)
    expect(out).toBe('<table><thead id="h"><tr><td>1</td></tr></table>');
    expect(reparsed(out)).toBe('<html><head></head><body><table><thead id="h"><tr><td>1</td></tr></thead></table></body></html>');
    // Not for void elements: an implied <br> (from </br>) has no end tag; the </br> was its only tag.
    const br = await rw('a</br>b', (r) => r.on('br', { element(e) { e.tagName = 'wbr'; } }));
    expect(br.out).toBe('a<wbr>b');
  });

  it('the </br> of an implied <br> is its tag: rewritten or removed with it', async () => {
    const attr = await rw('a</br>b', (r) => r.on('br', { element(e) { e.setAttribute('class', 'x'); e.after('|'); } }));
    expect(attr.out).toBe('a<br class="x">|b');
    const removed = await rw('a</br>b', (r) => r.on('br', { element(e) { e.remove(); } }));
    expect(removed.out).toBe('ab');
    const stray = await rw('<div></p></div>', (r) => r.on('p', { element(e) { e.setAttribute('class', 'x'); } }));
    expect(stray.out).toBe('<div><p class="x"></p></div>');
  });

  it('onEndTag on an implied element fires at its implicit end, as for any element closed implicitly', async () => {
    const { out, log } = await rw('<table><tr><td>x</table>', (r, log) =>
      r.on('tbody', { element(e) { e.onEndTag((end) => { log.push([end.name, end.explicit]); end.before('<tr><td>E</td></tr>', { html: true }); end.after('<!--|-->', { html: true }); }); } }),
    );
    expect(log).toEqual([['tbody', false]]);
    // (The row and cell still open where the tbody ends are closed before its end tag handler's content.)
    expect(out).toBe('<table><tr><td>x</td></tr><tr><td>E</td></tr></tbody><!--|--></table>');
    expect(reparsed(out)).toBe('<html><head></head><body><table><tbody><tr><td>x</td></tr><tr><td>E</td></tr></tbody><!--|--></table></body></html>');
    const body = await rw('x</body>y', (r, log) => r.on('body', { element(e) { e.onEndTag((end) => { log.push(end.explicit); end.before('[E]'); }); } }));
    expect(body.log).toEqual([true]);
    expect(body.out).toBe('x[E]</body>y');
  });

  it('async handlers on implied elements keep the order', async () => {
    const { out, log } = await rw(['<table><tr>', '<td>x</table>'], (r, log) =>
      r.on('*', {
        async element(e) {
          await new Promise((res) => setTimeout(res, 1));
          log.push(e.tagName);
          if (e.implied) e.prepend(`<!--${e.tagName}-->`, { html: true });
        },
      }),
    );
    expect(log).toEqual(['html', 'head', 'body', 'table', 'tbody', 'tr', 'td']);
    // Each implied element made explicit for a comment at its start (a comment is put where the parser
    // is: alignment.ts), in the order the handlers ran.
    expect(out).toBe('<html><!--html--><head><!--head--></head><body><!--body--><table><tbody><!--tbody--><tr><td>x</table>');
    expect(reparsed(out)).toBe('<html><!--html--><head><!--head--></head><body><!--body--><table><tbody><!--tbody--><tr><td>x</td></tr></tbody></table></body></html>');
  });

  it('<image> matches img and keeps its source name', async () => {
    const { out, log } = await rw('<image src=a>', (r, log) => r.on('img', { element(e) { log.push(e.tagName); e.setAttribute('alt', ''); } }));
    expect(log).toEqual(['image']);
    expect(out).toBe('<image src=a alt="">');
  });
});

describe('text goes where the tree builder puts it', () => {
  it('foster-parented text belongs to the table\'s parent', async () => {
    const { log } = await rw('<div><table>a<tr><td>b</td></tr></table></div>', (r, log) => {
      r.on('table', { text(t) { if (t.text) log.push(`table: ${t.text}`); } });
      r.on('div', { text(t) { if (t.text) log.push(`div: ${t.text}`); } });
    });
    expect(log).toEqual(['div: a', 'table: b', 'div: b']);
  });

  it('whitespace in a table stays in the table', async () => {
    const { log } = await rw('<table> <tr><td></td></tr></table>', (r, log) => r.on('table', { text(t) { log.push(JSON.stringify(t.text)); } }));
    expect(log).toEqual(['" "', '""']);
  });

  it('a text token split by the tree builder goes to both places', async () => {
    const { log } = await rw('<html><head>  x', (r, log) => {
      r.on('head', { text(t) { log.push(['head', t.text, t.lastInTextNode]); } });
      r.on('body', { text(t) { log.push(['body', t.text, t.lastInTextNode]); } });
    });
    expect(log).toEqual([['head', '  ', false], ['head', '', true], ['body', 'x', false], ['body', '', true]]);
  });

  it('text inside a template reaches document handlers only', async () => {
    const { log } = await rw('<template><p>x</p></template>', (r, log) => {
      r.on('p, template', { element(e) { log.push(`element ${e.tagName}`); }, text(t) { log.push(`selector text ${t.text}`); } });
      r.onDocument({ text(t) { if (t.text) log.push(`document text ${t.text}`); } });
    });
    expect(log).toEqual(['element template', 'document text x']);
  });
});

describe('the scripting flag', () => {
  it('with scripting off, <noscript> content is markup and its elements match', async () => {
    const on = await runRewriter((r) => r.on('noscript p', { element(e) { e.setAttribute('x', '1'); } }), ['<body><noscript><p>a</p></noscript>']);
    expect(on.out).toBe('<body><noscript><p>a</p></noscript>');
    const off = await runRewriter((r) => r.on('noscript p', { element(e) { e.setAttribute('x', '1'); } }), ['<body><noscript><p>a</p></noscript>'], { scripting: false });
    expect(off.out).toBe('<body><noscript><p x="1">a</p></noscript>');
  });
});

describe('end tags', () => {
  it('onEndTag fires where an element is closed implicitly, before the token that closes it', async () => {
    const { out, log } = await rw('<p>a<div>b</div>', (r, log) =>
      r.on('p', { element(e) { e.append('[A]'); e.after('[F]'); e.onEndTag((end) => { log.push([end.name, end.explicit]); end.before('[B]'); end.after('[T]'); end.name = 'x'; end.remove(); }); } }),
    );
    expect(log).toEqual([['p', false]]);
    // What comes after the p's end comes after an end tag that closes it there, as the <div> did.
    expect(out).toBe('<p>a[A][B]</p>[T][F]<div>b</div>');
  });

  it('onEndTag at the end of the document, before DocumentEnd content', async () => {
    const { out } = await rw('<div><span>x', (r) => {
      r.on('div, span', { element(e) { const n = e.tagName; e.onEndTag((end) => { end.before(`</${n}?>`); }); } });
      r.onDocument({ end(d) { d.append('<!--end-->', { html: true }); } });
    });
    expect(out).toBe('<div><span>x&lt;/span?&gt;</span>&lt;/div?&gt;<!--end-->');
  });

  it('</body> and </html> are the end tags of body and html', async () => {
    const input = '<html><body><p>x</p></body>\n</html>\n';
    const { out } = await rw(input, (r) => {
      r.on('body', { element(e) { e.onEndTag((end) => end.before('<footer>banner</footer>', { html: true })); } });
      r.on('html', { element(e) { e.onEndTag((end) => end.after('<!--after html-->', { html: true })); } });
    });
    expect(out).toBe('<html><body><p>x</p><footer>banner</footer></body>\n</html><!--after html-->\n');
  });

  it('an ignored </body> (inside a table) is not the end of body', async () => {
    const { out } = await rw('<body><table></body><tr><td>x</td></tr></table></body>', (r) =>
      r.on('body', { element(e) { e.onEndTag((end) => end.before('[E]')); } }),
    );
    expect(out).toBe('<body><table></body><tr><td>x</td></tr></table>[E]</body>');
  });

  it('elements without an end tag reject onEndTag; <div/> does not', async () => {
    const { log } = await rw('<br><svg><rect/></svg><div/>x', (r, log) =>
      r.on('br, rect, div', {
        element(e) {
          try {
            e.onEndTag(() => {});
            log.push(`${e.tagName} ok`);
          } catch (err) {
            log.push((err as Error).message);
          }
        },
      }),
    );
    expect(log).toEqual(['Element.onEndTag: <br> has no end tag (it is void or self-closing)', 'Element.onEndTag: <rect> has no end tag (it is void or self-closing)', 'div ok']);
  });

  it('renaming an element renames its end tag', async () => {
    const { out } = await rw('<DIV>x</DIV >y', (r) => r.on('div', { element(e) { e.tagName = 'Section'; } }));
    expect(out).toBe('<section>x</section>y');
  });

  it('renaming an element that is closed implicitly writes an end tag where it closes', async () => {
    const { out } = await rw('<p>a<div>b</div><ul><li>1<li>2</ul>', (r) => {
      r.on('p', { element(e) { e.tagName = 'section'; } });
      r.on('li', { element(e) { e.tagName = 'x-li'; } });
    });
    expect(out).toBe('<section>a</section><div>b</div><ul><x-li>1</x-li><x-li>2</x-li></ul>');
    // The end tag handler sees that end tag: it can rename or remove it.
    const handled = await rw('<p>a<p>b<br>', (r, log) =>
      r.on('p', {
        element(e) {
          e.tagName = 'div';
          e.onEndTag((end) => {
            log.push([end.name, end.explicit]);
            if (e.sourceOffset === 0) end.name = 'span';
            else end.remove();
          });
        },
      }),
    );
    expect(handled.log).toEqual([['div', false], ['div', false]]);
    expect(handled.out).toBe('<div>a</span><div>b<br>');
    // Void elements have no end tag to write.
    const br = await rw('<br>x', (r) => r.on('br', { element(e) { e.tagName = 'wbr'; } }));
    expect(br.out).toBe('<wbr>x');
  });

  it('a rename that makes an element special is refused where a later pass of the adoption agency algorithm closes it', async () => {
    // `</b>`'s first pass moves the div's content into a copy of the b; its second pass finds no
    // furthest block below that copy and closes the span — a browser reading `<div>` there finds one.
    const toDiv = (r: HTMLRewriter) => r.on('span', { element(e) { e.tagName = 'div'; } });
    await expect(rw('<b><div><span></b>', toDiv)).rejects.toThrow(/the <span> renamed <div> cannot be written .* closes it on a later pass/);
    await expect(rw('<a><div><em><span>x</a>y', toDiv)).rejects.toThrow(/the <span> renamed <div> cannot be written/);
    // Closed by the first pass (no furthest block): its end tag is written before the b's.
    expect((await rw('<b><span></b>', toDiv)).out).toBe('<b><div></div></b>');
    // Closed before the algorithm runs: written as it was.
    expect((await rw('<b><div><span>x</span></b>y', toDiv)).out).toBe('<b><div><div>x</div></b>y');
  });

  it('remove() removes the source from the start tag to where the element ends', async () => {
    const { out } = await rw('<ul><li>a<li id=x>b<li>c</ul>', (r) => r.on('#x', { element(e) { e.remove(); } }));
    // The removed <li> closed the first: written where it was, as a browser would otherwise not close it until <li>c.
    expect(out).toBe('<ul><li>a</li><li>c</ul>');
  });

  it('setInnerContent replaces up to the implicit end', async () => {
    const { out } = await rw('<p>old<p>next', (r) => r.on('p:first-child', { element(e) { e.setInnerContent('new'); } }));
    expect(out).toBe('<p>new<p>next');
  });
});

describe('inserted content is escaped for its context', () => {
  it('text inserted into a script cannot enter or leave its escape states', async () => {
    // After the source's `<!--`, an inserted `<script>` would start the double-escaped state, and the
    // source's `</script>` would no longer end the script; an inserted `-->` would leave the escaped state.
    for (const text of ['"<script>"', "'<SCRIPT '", '"-->"', '"<!--<script>"']) {
      const { out } = await rw('<script><!--a</script><p>after</p>', (r) => r.on('script', { element(e) { e.append(text); } }));
      const doc = parse(out);
      expect(doc.body!.innerHTML).toBe('<p>after</p>');
      // Read as JavaScript, the escapes give the text back.
      const inserted = doc.head!.firstChild!.textContent!.slice('<!--a'.length);
      expect(new Function(`return ${inserted}`)()).toBe(new Function(`return ${text}`)());
    }
  });

  it('content inside an element is escaped as the output reads it: after a new name, without the start tag', async () => {
    // A <div> renamed <section> holds markup still: inserted text is escaped as ordinary content,
    // whether the text came before or after the rename.
    const renamed = await rw('<div>x</div>', (r) => r.on('div', { element(e) { e.append('<b>1</b>'); e.tagName = 'section'; e.prepend('<i>'); } }));
    expect(renamed.out).toBe('<section>&lt;i&gt;x&lt;b&gt;1&lt;/b&gt;</section>');
    // Without its start tag, a <span>'s inserted content is its parent's.
    const unwrapped = await rw('<p><span>s</span></p>', (r) => r.on('span', { element(e) { e.append('<u>'); e.removeAndKeepContent(); } }));
    expect(unwrapped.out).toBe('<p>s&lt;u&gt;</p>');
    // A <script> renamed <div>, a <style> without its tags, a <div> renamed <xmp>: their source content
    // would be read otherwise (markup, or text), which no escaping of what was inserted changes: refused.
    await expect(rw('<script>x</script>', (r) => r.on('script', { element(e) { e.tagName = 'div'; } }))).rejects.toThrow(/renaming the <script>/);
    await expect(rw('<p><style>s</style></p>', (r) => r.on('style', { element(e) { e.removeAndKeepContent(); } }))).rejects.toThrow(/removeAndKeepContent\(\) on the <style>/);
    await expect(rw('<div>x</div>', (r) => r.on('div', { element(e) { e.append('</xmp>'); e.tagName = 'xmp'; } }))).rejects.toThrow(/raw text|renaming the <div>/);
  });

  it('a CR in inserted text or an attribute value is written as a reference (as is, a parser reads it as LF)', async () => {
    const { out } = await rw('<p>x</p>', (r) => r.on('p', { element(e) { e.append('a\rb'); e.setAttribute('title', 'c\r\nd'); } }));
    expect(out).toBe('<p title="c&#13;\nd">xa&#13;b</p>');
    const p = parse(out).body!.firstChild as unknown as { textContent: string; getAttribute(n: string): string };
    expect(p.textContent).toBe('xa\rb');
    expect(p.getAttribute('title')).toBe('c\r\nd');
  });

  it('ordinary content and RCDATA: references', async () => {
    const { out } = await rw('<p>x</p><textarea>t</textarea>', (r) => r.on('p, textarea', { element(e) { e.append('a<b>&c'); } }));
    expect(out).toBe('<p>xa&lt;b&gt;&amp;c</p><textarea>ta&lt;b&gt;&amp;c</textarea>');
  });

  it('script and style: cannot be closed or opened into an escaped section', async () => {
    const { out } = await rw('<script>var a;</script><style>p{}</style>', (r) => {
      r.on('script, style', { element(e) { e.append('"</script><!--x"'); } });
      r.on('script', { text(t) { if (t.text) t.after(' // </SCRIPT>'); } });
    });
    expect(out).toBe('<script>var a; // <\\/SCRIPT>"<\\/script><\\!--x"</script><style>p{}"<\\/script><\\!--x"</style>');
  });

  it('other raw text elements reject text that could end them', async () => {
    await expect(rw('<xmp>x</xmp>', (r) => r.on('xmp', { element(e) { e.append('</xmp>'); } }))).rejects.toThrow(/cannot be inserted into a raw text element/);
    const { out } = await rw('<xmp>x</xmp>', (r) => r.on('xmp', { element(e) { e.append('a<b>&'); } }));
    expect(out).toBe('<xmp>xa<b>&</xmp>');
  });

  it('plaintext: verbatim; CDATA: split around ]]>', async () => {
    const { out } = await rw('<plaintext>x', (r) => r.on('plaintext', { element(e) { e.append('</plaintext>&'); } }));
    expect(out).toBe('<plaintext>x</plaintext>&');
    const svg = await rw('<svg><![CDATA[a]]></svg>', (r) => r.on('svg', { text(t) { if (t.text) t.replace('x]]>y'); } }));
    expect(svg.out).toBe('<svg><![CDATA[x]]]]><![CDATA[>y]]></svg>');
  });

  it('setAttribute values are double-quoted with & and " escaped', async () => {
    const { out } = await rw('<a href=x>', (r) => r.on('a', { element(e) { e.setAttribute('title', `"'<>&amp;`); } }));
    expect(out).toBe('<a href=x title="&quot;\'<>&amp;amp;">');
  });

  it('getAttribute decodes references; the rewritten value round-trips', async () => {
    const { out, log } = await rw('<a href="/?a=1&amp;b=2">', (r, log) => r.on('a', { element(e) { log.push(e.getAttribute('href')); e.setAttribute('href', `http://h${e.getAttribute('href')}`); } }));
    expect(log).toEqual(['/?a=1&b=2']);
    expect(out).toBe('<a href="http://h/?a=1&amp;b=2">');
  });
});

describe('misuse is an Error that names the problem', () => {
  const unsupported: [string, RegExp][] = [
    ['p:last-child', /:last-child/],
    ['li:nth-last-child(2)', /:nth-last-child/],
    ['a:hover', /:hover/],
    ['p::before', /::before/],
    ['a || b', /\|\|/],
    ['svg|rect', /svg\|/],
    ['a >', /ends with a combinator/],
    ['> a', /leading combinator/],
    ['[a!=b]', /!=/],
    ['div:has(p)', /:has/],
    ['p:empty', /:empty/],
    [':nth-child(x)', /is not An\+B/],
    ['a,,b', /Invalid selector/],
  ];
  for (const [selector, message] of unsupported) {
    it(`rejects ${selector}`, () => {
      expect(() => new HTMLRewriter().on(selector, {})).toThrow(message);
    });
  }

  it('accepts the lol-html set and the sibling combinators, :is(), :where(), :root', () => {
    for (const s of ['*', 'p', '.c', '#i', '[a]', '[a=b]', '[a~=b]', '[a|=b]', '[a^=b]', '[a$=b]', '[a*=b]', '[a=b i]', '[a=b s]', 'a b', 'a > b', ':nth-child(2n+1)', ':first-child', ':nth-of-type(odd)', ':first-of-type', ':not(.x)', 'a + b', 'a ~ b', ':is(a, b)', ':where(a) b', ':root', ':nth-child(2 of .x)', '*|a', '[*|href]']) {
      expect(() => parseSelector(s), s).not.toThrow();
    }
  });

  it('bad names and handlers', async () => {
    await expect(rw('<p>', (r) => r.on('p', { element(e) { e.tagName = 'a b'; } }))).rejects.toThrow(/Element.tagName: "a b" is not a valid tag name/);
    await expect(rw('<p>', (r) => r.on('p', { element(e) { e.setAttribute('a=b', ''); } }))).rejects.toThrow(/Element.setAttribute: "a=b" is not a valid attribute name/);
    await expect(rw('<!--x-->', (r) => r.onDocument({ comments(c) { c.text = 'a-->b'; } }))).rejects.toThrow(/Comment.text: comment text must not contain "-->"/);
    expect(() => new HTMLRewriter().on('p', { element: 5 } as any)).toThrow(/handlers.element must be a function/);
    expect(() => new HTMLRewriter().on('p', null as any)).toThrow(/handlers must be an object/);
  });

  it('a unit used after its handler finished', async () => {
    let saved: any = null;
    await rw('<p>x</p>', (r) => r.on('p', { element(e) { saved = e; } }));
    expect(() => saved.append('x')).toThrow(/can no longer be changed/);
  });

  it('write after end, end twice', async () => {
    const t = new HTMLRewriter().createTransformer(() => {});
    t.write('x');
    t.end();
    expect(() => t.write('y')).toThrow(/write\(\) called after end\(\)/);
    expect(() => t.end()).toThrow(/end\(\) called twice/);
  });
});

describe('rewrites inside handlers', () => {
  it('a handler may run another rewrite to its end, synchronously; the outer one carries on unchanged', () => {
    const inner = (html: string): string => {
      let out = '';
      const t = new HTMLRewriter().on('i', { element: (el) => void el.setAttribute('n', 'inner') }).createTransformer((s) => (out += s));
      t.write(html);
      t.end();
      return out;
    };
    let out = '';
    const outer = new HTMLRewriter()
      .on('b', { element: (el) => void el.after(inner('<i>x</i><p>y'), { html: true }) })
      .on('i', { element: (el) => void el.setAttribute('n', 'outer') })
      .createTransformer((s) => (out += s));
    outer.write('<b>1</b><i>2</i><b>3');
    outer.write('</b><i>4</i>');
    outer.end();
    expect(out).toBe('<b>1</b><i n="inner">x</i><p>y<i n="outer">2</i><b>3</b><i n="inner">x</i><p>y<i n="outer">4</i>');
  });
});

// HTML §4.16.2 "Case-sensitivity of selectors": names lowercased for HTML elements and their
// attributes, as written for foreign ones (Chromium deviates: docs/selectors.md).
describe('case of names on foreign elements', () => {
  const svg = '<svg viewBox="0 0 1 1"><clipPath id=c><rect></rect></clipPath></svg><DIV CLASS=x></DIV>';
  const fired = async (selector: string): Promise<string[]> => {
    const { log } = await rw(svg, (r, log) => r.on(selector, { element(e) { log.push(e.tagName); } }));
    // The byte path compiles its own selectors: the same answer.
    const bytes: string[] = [];
    const t = new HTMLRewriter().on(selector, { element(e) { bytes.push(e.tagName); } }).createByteTransformer(() => {});
    t.write(new TextEncoder().encode(svg));
    t.end();
    expect(bytes).toEqual(log);
    return log as string[];
  };
  it(".on('clipPath') fires; .on('clippath') and .on('CLIPPATH') do not", async () => {
    expect(await fired('clipPath')).toEqual(['clippath']); // tagName is the name lowercased, as lol-html's
    expect(await fired('clippath')).toEqual([]);
    expect(await fired('CLIPPATH')).toEqual([]);
    expect(await fired('clippath > rect')).toEqual([]);
    expect(await fired('clipPath > rect')).toEqual(['rect']);
  });
  it("[viewBox] matches the SVG attribute, [viewbox] does not; HTML's names stay case-insensitive", async () => {
    expect(await fired('[viewBox]')).toEqual(['svg']);
    expect(await fired('[viewbox]')).toEqual([]);
    expect(await fired('DIV')).toEqual(['div']);
    expect(await fired('[CLASS]')).toEqual(['div']);
    expect(await fired('SVG')).toEqual([]);
  });
});
