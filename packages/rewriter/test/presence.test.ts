/**
 * Whether an element is in the output, once something was removed (transform/alignment.ts `present`):
 * the walk up its ancestors is remembered on the elements it passes (`presentMemo`), valid until one of
 * them is left out or moved. Every rewrite under test checks each answer against the walk
 * (tests/setup/rewriter-checks.ts, `verifyPresence`); the invalidations below are rare in documents
 * (a removal decided after the removed element's content was asked about, a move of a walked element),
 * so each has a case of its own here.
 */
import { describe, expect, it } from 'vitest';
import { OutputAlignment } from '../src/transform/alignment.js';
import { ElementRecord, OUT_ABSENT, OUT_CONTENT_ABSENT, type ParentRecord } from '../src/view/records.js';
import { ViewSink } from '../src/view/view-sink.js';
import { SelectorRegistry } from '../src/selectors/registry.js';

const HTML = 'http://www.w3.org/1999/xhtml';

function element(name: string, parent: ParentRecord | null): ElementRecord {
  const el = new ElementRecord(name, HTML, [], false);
  el.parent = parent;
  return el;
}

/** html > body > div > p > b > i, and an alignment where something was removed elsewhere. */
function setUp() {
  const align = new OutputAlignment(
    () => {},
    () => '',
  );
  const html = element('html', null);
  const body = element('body', html);
  const div = element('div', body);
  const p = element('p', div);
  const b = element('b', p);
  const i = element('i', b);
  const removed = element('script', body);
  align.leaveOut(removed, OUT_ABSENT);
  return { align, html, body, div, p, b, i, removed };
}

describe('present: the remembered walk', () => {
  it('answers as the walk does, and remembers it on the way up', () => {
    const { align, i, b, div } = setUp();
    expect(align.present(i)).toBe(true);
    expect(b.presentMemo).not.toBe(0);
    expect(div.presentMemo).not.toBe(0);
    expect(align.present(i)).toBe(true);
  });

  it('forgets when an element already walked through is left out (its content is then not in the output)', () => {
    const { align, i, div } = setUp();
    expect(align.present(i)).toBe(true);
    align.leaveOut(div, OUT_CONTENT_ABSENT);
    expect(align.present(i)).toBe(false);
  });

  it('forgets when an element walked through is moved', () => {
    const { align, i, b, removed } = setUp();
    expect(align.present(i)).toBe(true);
    // (The adoption agency algorithm: the sink tells the alignment before it changes the parent.)
    align.moved(b);
    b.parent = removed;
    expect(align.present(i)).toBe(false);
  });

  it('forgets when the sink moves an element walked through (ViewSink.insertBefore of an element in the tree)', () => {
    const { align, i, b, p, removed } = setUp();
    const sink = new ViewSink(new SelectorRegistry(), [], new Map(), []);
    sink.onMove = (el) => align.moved(el);
    p.addOpenChild(b);
    b.open = true;
    b.evaluated = true;
    removed.evaluated = true;
    expect(align.present(i)).toBe(true);
    sink.insertBefore(removed, b, null);
    expect(b.parent).toBe(removed);
    expect(align.present(i)).toBe(false);
  });

  it('forgets when the children of an element walked through go into a new element (ViewSink.moveChildren)', () => {
    const { align, i, b, p } = setUp();
    const sink = new ViewSink(new SelectorRegistry(), [], new Map(), []);
    sink.onMove = (el) => align.moved(el);
    p.addOpenChild(b);
    b.open = true;
    expect(align.present(i)).toBe(true);
    // The furthest block's children go into a copy of the formatting element, which is then put in it
    // (§13.2.6.4.7 steps 4.17, 4.19); here the copy is left out.
    const copy = element('b', null);
    align.leaveOut(copy, OUT_ABSENT);
    sink.moveChildren(p, copy);
    copy.parent = p;
    expect(b.parent).toBe(copy);
    expect(align.present(i)).toBe(false);
  });
});
