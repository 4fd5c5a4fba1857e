// A big page-like document for the memory benchmarks (bench/rewrite-memory.mjs, bench/cli-memory.mjs),
// made on the fly and never held whole: sections of articles with links, text, lists, tables, comments,
// a script and multi-byte text, repeated until the size is reached.

/** One section of the document. */
function block(i) {
  return `<section id="s${i}" class="block ${i % 3 ? 'odd' : 'even'}"><h2>Section ${i}</h2>` +
    `<article><p>Text ${i} with <a href="http://example.com/${i}">a link</a>, <b>bold</b>, <i>it</i> &amp; caf\u00e9 \u65e5\u672c.</p>` +
    `<ul><li>one<li>two<li><a href="/rel/${i}">three</a></ul><!-- c${i} -->` +
    `<table><tr><td>${i}</td><td>cell</td></tr></table><img src="/i/${i}.png" alt=""><br>` +
    `<script>var x${i % 10} = "<\\/p>" + ${i};</script></article></section>\n`;
}

const encoder = new TextEncoder();
const tail = encoder.encode('</body></html>\n');
let pieces = null;

/**
 * A 4 MiB stretch of blocks cut into `chunk`-byte pieces anywhere (through multi-byte characters too),
 * made once (so that the generator's own garbage does not dominate a measurement).
 */
function piecesOf(chunk) {
  if (pieces === null || pieces.chunk !== chunk) {
    const stretch = encoder.encode(Array.from({ length: 6000 }, (_, i) => block(i)).join('').slice(0, 4 * 1024 * 1024));
    const list = [];
    for (let at = 0; at < stretch.length; at += chunk) list.push(stretch.subarray(at, at + chunk));
    pieces = { chunk, list };
  }
  return pieces.list;
}

/**
 * Yields the UTF-8 bytes of a document of `total` bytes in pieces of at most `chunk` bytes: `head` (the
 * text up to and including `<body>`), the stretch of blocks over and over, and `</body></html>`.
 */
export function* bigDocument(total, head, chunk = 64 * 1024) {
  const list = piecesOf(chunk);
  const start = encoder.encode(head);
  yield start;
  let produced = start.length;
  for (let k = 0; produced < total - tail.length; k++) {
    const piece = list[k % list.length];
    const room = total - tail.length - produced;
    const out = piece.length <= room ? piece : piece.subarray(0, room);
    produced += out.length;
    yield out;
  }
  yield tail;
}
