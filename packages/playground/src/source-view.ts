/**
 * The input shown with marks: token spans, parse errors, split points, the part fed so far. A `<pre>`
 * under the editor (a `<textarea>` cannot color its text). Clicking it reports the character offset
 * clicked (the stepper places split points with it).
 */
import { h } from './dom.js';

export interface Mark {
  from: number;
  to: number;
  /** CSS class: `token`, `token-new`, `error`, `focus`, `matched`. */
  cls: string;
  title?: string;
}

/** Above this many marks, only the first are drawn (the page stays responsive on a 1 MB input). */
const MAX_MARKS = 4000;
/** A longer input is shown as a window of this many characters, around the mark a view points at. */
const WINDOW = 100_000;

export class SourceView {
  readonly element = h('pre', { class: 'source', tabindex: '0', 'aria-label': 'The input, with marks' });
  private onOffset: ((offset: number) => void) | null = null;
  /** The offset of the first character shown (a long input is shown as a window). */
  private base = 0;

  constructor() {
    this.element.addEventListener('click', () => {
      const offset = this.selectionOffset();
      if (offset !== null) this.onOffset?.(offset);
    });
  }

  /** Called with the offset of a click (null: clicks do nothing). */
  setClickHandler(handler: ((offset: number) => void) | null): void {
    this.onOffset = handler;
    this.element.classList.toggle('clickable', handler !== null);
    this.element.title = handler === null ? '' : 'Click between two characters to add or remove a split point';
  }

  /**
   * Draws `text` with `marks` (they may overlap: the innermost wins for color), split points as thin
   * bars, and the text after `fed` dimmed (-1: all fed).
   */
  render(fullText: string, allMarks: readonly Mark[], allSplits: readonly number[] = [], allFed = -1): void {
    // A long input: a window around the focused mark (else the first mark past what was fed, else the start).
    let base = 0;
    let text = fullText;
    if (fullText.length > WINDOW) {
      const target = allMarks.find((m) => m.cls.includes('focus')) ?? allMarks.find((m) => m.cls.includes('new') || m.cls.includes('held')) ?? null;
      const at = target !== null ? target.from : Math.max(0, allFed);
      base = Math.max(0, Math.min(fullText.length - WINDOW, at - WINDOW / 4));
      text = fullText.slice(base, base + WINDOW);
    }
    const shift = (m: Mark): Mark => ({ ...m, from: m.from - base, to: m.to - base });
    const inWindow = base === 0 && text === fullText ? allMarks : allMarks.filter((m) => m.to >= base && m.from <= base + text.length).map(shift);
    const marks = inWindow;
    const splits = allSplits.map((x) => x - base).filter((x) => x > 0 && x < text.length);
    const fed = allFed < 0 ? -1 : Math.max(0, allFed - base);
    this.base = base;
    const kept = marks.length > MAX_MARKS ? marks.slice(0, MAX_MARKS) : marks;
    // Boundaries: every mark edge, split point and the fed position.
    const points = new Set<number>([0, text.length]);
    for (const m of kept) {
      points.add(Math.max(0, Math.min(text.length, m.from)));
      points.add(Math.max(0, Math.min(text.length, m.to)));
    }
    for (const s of splits) points.add(s);
    if (fed >= 0) points.add(Math.min(fed, text.length));
    const cuts = [...points].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
    const splitSet = new Set(splits);
    const starts = [...kept].sort((a, b) => a.from - b.from || b.to - a.to);
    const frag = document.createDocumentFragment();
    let k = 0;
    const active: Mark[] = [];
    for (let i = 0; i < cuts.length; i++) {
      const at = cuts[i];
      if (splitSet.has(at) && at > 0 && at < text.length) frag.append(h('span', { class: 'split', title: `split at ${at}`, 'aria-label': `split at ${at}` }));
      if (i === cuts.length - 1) break;
      const to = cuts[i + 1];
      while (k < starts.length && starts[k].from <= at) active.push(starts[k++]);
      for (let j = active.length - 1; j >= 0; j--) if (active[j].to <= at) active.splice(j, 1);
      const piece = text.slice(at, to);
      const classes = active.map((m) => m.cls);
      if (fed >= 0 && at >= fed) classes.push('unfed');
      if (classes.length === 0) frag.append(piece);
      else {
        const title = active.map((m) => m.title).filter(Boolean).join('\n');
        frag.append(h('span', { class: classes.join(' '), ...(title ? { title } : {}), 'data-from': String(at) }, piece));
      }
    }
    this.element.replaceChildren(frag);
    if (text !== fullText) {
      this.element.prepend(h('div', { class: 'note' }, `(characters ${base}–${base + text.length} of ${fullText.length})`));
    }
    if (marks.length > MAX_MARKS) this.element.append(h('div', { class: 'note' }, `(${marks.length - MAX_MARKS} more marks not drawn)`));
    this.element.dataset.length = String(text.length);
  }

  /** Scrolls the first element with class `cls` into view. */
  reveal(cls: string): void {
    this.element.querySelector(`.${cls}`)?.scrollIntoView({ block: 'nearest' });
  }

  /** The character offset of the caret (after a click), counted over the text nodes of the view. */
  private selectionOffset(): number | null {
    const sel = window.getSelection();
    if (sel === null || sel.rangeCount === 0 || !sel.isCollapsed) return null;
    const node = sel.anchorNode;
    if (node === null || !this.element.contains(node) || node.nodeType !== 3) return null;
    if (node.parentElement?.closest('.note') != null) return null;
    let offset = this.base + sel.anchorOffset;
    const walker = document.createTreeWalker(this.element, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n !== null && n !== node; n = walker.nextNode()) {
      if ((n.parentElement as HTMLElement | null)?.closest('.note') === null) offset += (n as Text).data.length;
    }
    return offset;
  }
}
