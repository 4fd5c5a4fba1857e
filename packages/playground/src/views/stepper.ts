/**
 * The chunk stepper: the input cut at split points (every N characters, or where you click in the
 * source), fed chunk by chunk. After each step: the tokenizer's state by the standard's name, the text it
 * holds back and the token that text is becoming, the tree builder's insertion mode and open elements,
 * the tokens so far (their spans marked in the input), this step's mutation events and the tree as it
 * stands. Whatever the split, the result is the one-shot parse's: the page checks it.
 */
import { fill, h, visible } from '../dom.js';
import { describeToken, spanOf, type Model } from '../model.js';
import { dumpOf, stepThrough, SteppedParse } from '../pipeline.js';
import type { Mark } from '../source-view.js';
import { treeView } from '../tree-view.js';
import { eventList } from './events.js';
import type { View } from './view.js';

export class StepperView implements View {
  readonly id = 'stepper';
  readonly title = 'Chunk stepper';
  readonly element = h('section', { class: 'view' });
  private model: Model | null = null;
  private splits: number[] = [];
  private run: SteppedParse | null = null;
  /** Steps taken (chunks fed; one more for end()). */
  private taken = 0;
  /** The number of the latest final check (a sliced one stops when a newer one starts). */
  private checks = 0;
  private readonly sizeInput = h('input', { type: 'number', min: '1', value: '7', id: 'chunk-size', 'aria-label': 'Chunk size' });
  private readonly splitsInput = h('input', { type: 'text', id: 'split-points', size: '40', 'aria-label': 'Split points (offsets, comma-separated)' });
  private readonly status = h('div', { class: 'step-status', id: 'step-status', 'aria-live': 'polite' });
  private readonly check = h('p', { id: 'final-check' });
  private readonly panels = h('div', { class: 'stepper-panels' });
  private readonly bytesNote = h('p', { class: 'note' },
    'Bytes in: the split points count bytes. The encoding was sniffed first, over the whole input (sluice’s byte path waits for up to 1,024 bytes for the <meta> prescan before it decodes anything); the stepper then decodes each chunk as it comes, a character cut by a split waiting in the decoder.');

  constructor() {
    this.splitsInput.addEventListener('change', () => this.setSplits(parseSplits(this.splitsInput.value)));
    const button = (label: string, id: string, action: () => void, key?: string) =>
      h('button', { id, onclick: action, ...(key ? { 'aria-keyshortcuts': key, title: `${label} (${key})` } : {}) }, label);
    this.element.append(
      h('div', { class: 'controls' },
        h('label', {}, 'Chunk size ', this.sizeInput),
        button('Split every N', 'split-every', () => this.splitEvery()),
        h('label', {}, ' Split points ', this.splitsInput),
        button('Reset', 'step-reset', () => this.reset()),
        button('Step ▶', 'step', () => this.step(), 'Alt+S'),
        button('Run to end', 'step-all', () => this.runToEnd()),
        button('Try 20 random splits', 'random-splits', () => this.randomSplits()),
      ),
      h('p', { class: 'note' }, 'Click between two characters of the input below to add or remove a split point, or type the offsets (',
        'characters; for bytes in, bytes). The one-shot parse and this split must give the same tree.'),
      this.bytesNote,
      this.check,
      this.status,
      this.panels,
    );
    this.element.addEventListener('keydown', (e) => {
      if (e.altKey && (e.key === 's' || e.key === 'S')) {
        e.preventDefault();
        this.step();
      }
    });
  }

  render(model: Model): void {
    const changed = this.model === null || this.model.input !== model.input || this.model.bytes !== model.bytes || this.model.settings !== model.settings;
    this.model = model;
    model.source.setClickHandler((offset) => this.toggleSplit(offset));
    // A new input is cut every N again (split points belong to the input they were placed in).
    if (changed) this.splitEvery();
    else this.show();
  }

  /** The stepper stops taking clicks in the source when another tab is shown. */
  leave(model: Model): void {
    model.source.setClickHandler(null);
  }

  private splitEvery(): void {
    const n = Math.max(1, Math.floor(Number(this.sizeInput.value) || 1));
    const length = this.model?.length ?? 0;
    const splits: number[] = [];
    for (let i = n; i < length && splits.length < 100_000; i += n) splits.push(i);
    this.setSplits(splits);
  }

  private toggleSplit(offset: number): void {
    if (this.model === null || this.model.bytes !== null) return; // bytes: offsets are typed, not clicked
    const at = this.splits.indexOf(offset);
    const next = at >= 0 ? this.splits.filter((s) => s !== offset) : [...this.splits, offset];
    this.setSplits(next);
  }

  private setSplits(splits: number[]): void {
    const length = this.model?.length ?? 0;
    this.splits = [...new Set(splits.filter((s) => Number.isInteger(s) && s > 0 && s < length))].sort((a, b) => a - b);
    this.splitsInput.value = this.splits.length > 200 ? `${this.splits.slice(0, 200).join(', ')}, …` : this.splits.join(', ');
    this.reset();
  }

  private reset(): void {
    const model = this.model;
    if (model === null) return;
    this.run = new SteppedParse(model.settings, model.bytes);
    this.taken = 0;
    this.finalCheck(model);
    this.show();
  }

  /** Feeds the next chunk (or, after the last, ends the input). */
  private step(): void {
    const model = this.model;
    const run = this.run;
    if (model === null || run === null || run.ended) return;
    const ends = [...this.splits, model.length];
    if (this.taken < ends.length) run.feedTo(model.input, ends[this.taken]);
    else run.end();
    this.taken++;
    this.show();
  }

  private runToEnd(): void {
    const run = this.run;
    if (run === null) return;
    while (!run.ended) this.stepQuietly();
    this.show();
  }

  private stepQuietly(): void {
    const model = this.model!;
    const run = this.run!;
    const ends = [...this.splits, model.length];
    if (this.taken < ends.length) run.feedTo(model.input, ends[this.taken]);
    else run.end();
    this.taken++;
  }

  /**
   * Twenty random splittings (1 to 40 chunks; one of them every single character, for inputs up to
   * 5,000), each run whole and compared with the one-shot parse, as the check line compares this one.
   */
  private randomSplits(): void {
    const model = this.model;
    if (model === null) return;
    const length = model.length;
    const failed: string[] = [];
    for (let round = 0; round < 20; round++) {
      let splits: number[];
      if (round === 0 && length <= 5000) splits = Array.from({ length: Math.max(0, length - 1) }, (_, i) => i + 1);
      else {
        const count = Math.floor(Math.random() * 40);
        splits = [...new Set(Array.from({ length: count }, () => 1 + Math.floor(Math.random() * Math.max(1, length - 1))))].sort((a, b) => a - b);
      }
      const run = stepThrough(model.input, model.bytes, splits, model.settings);
      if (dumpOf(run) !== model.resultDump || run.tokens.map((t) => t.raw).join('') !== model.input) failed.push(splits.join(','));
    }
    this.check.className = failed.length === 0 ? 'ok' : 'bad';
    this.check.textContent = failed.length === 0
      ? `✓ 20 random splits${length <= 5000 ? ' (one of them every single character)' : ''}: every one gives the one-shot parse’s tree.`
      : `✗ ${failed.length} of 20 random splits differ from the one-shot parse, e.g. at ${failed[0]}.`;
  }

  /**
   * The whole split run against the one-shot parse: the same tree, the same tokens' text. A long input
   * (over CHECK_AT_ONCE) is fed in slices of about 30 ms between which the page runs (a 1 MB page cut
   * every 7 characters is 140,000 chunks: seconds of work that would otherwise freeze the tab).
   */
  private finalCheck(model: Model): void {
    const id = ++this.checks;
    if (model.length <= CHECK_AT_ONCE) {
      this.showCheck(model, stepThrough(model.input, model.bytes, this.splits, model.settings));
      return;
    }
    const run = new SteppedParse(model.settings, model.bytes);
    const ends = [...this.splits, model.length];
    let fed = 0;
    this.check.className = 'note';
    this.check.textContent = `Checking ${ends.length} chunks against the one-shot parse…`;
    const slice = () => {
      // A newer check (new splits, a new input) replaces this one.
      if (id !== this.checks) return;
      const until = performance.now() + 30;
      while (fed < ends.length && performance.now() < until) run.feedTo(model.input, ends[fed++]);
      if (fed < ends.length) {
        this.check.textContent = `Checking… ${fed} of ${ends.length} chunks fed`;
        setTimeout(slice, 0);
        return;
      }
      run.end();
      this.showCheck(model, run);
    };
    setTimeout(slice, 0);
  }

  private showCheck(model: Model, split: SteppedParse): void {
    const same = dumpOf(split) === model.resultDump;
    const rawSame = split.tokens.map((t) => t.raw).join('') === model.input;
    const api = model.settings.context === null ? `parse(${model.bytes !== null ? 'bytes' : 'text'})` : 'parseFragment()';
    this.check.className = same && rawSame ? 'ok' : 'bad';
    this.check.textContent = same && rawSame
      ? `✓ In ${this.splits.length + 1} chunks the final tree is ${api}’s tree in one piece, and the tokens’ raw texts give back the input.`
      : `✗ In ${this.splits.length + 1} chunks the result differs from ${api} (${same ? 'tokens' : 'tree'}).`;
  }

  private show(): void {
    const model = this.model;
    const run = this.run;
    if (model === null || run === null) return;
    const total = this.splits.length + 2; // chunks, then end()
    const last = run.steps[run.steps.length - 1];
    const prev = run.steps[run.steps.length - 2];
    const newTokensFrom = prev?.tokens ?? 0;
    const newEventsFrom = prev?.events ?? 0;
    const fed = run.textFed;
    // The source: the tokens so far (this step's marked new), the splits, the part not fed yet dimmed.
    const marks: Mark[] = run.tokens.map((t, i) => ({ ...spanOf(t), cls: i >= newTokensFrom && last !== undefined ? 'token-new' : i % 2 ? 'token alt' : 'token' }));
    const state = last?.state;
    if (state !== undefined && state.heldText !== '') marks.push({ from: state.offset - state.heldText.length, to: state.offset, cls: 'held', title: 'held back' });
    // Split points count bytes for a byte input: they are drawn only on text.
    model.source.render(model.input, marks, model.bytes === null ? this.splits : [], fed);
    this.bytesNote.hidden = model.bytes === null;
    if (last === undefined) {
      this.status.textContent = `Step 0 of ${total}: nothing fed yet. ${this.splits.length + 1} chunks, then end().`;
      fill(this.panels, h('p', { class: 'note' }, 'Press Step to feed the first chunk.'));
      return;
    }
    const isEnd = run.ended;
    this.status.textContent = isEnd
      ? `Step ${this.taken} of ${total}: end() — the held text flushed, the end-of-file rules run.`
      : `Step ${this.taken} of ${total}: fed [${last.from}, ${last.to}) ${visible(last.text, 60)}`;
    const tb = run.treeBuilderState;
    const pending = state!.pendingToken;
    const newTokens = run.tokens.slice(newTokensFrom);
    fill(
      this.panels,
      h('div', { class: 'panel' },
        h('h3', {}, isEnd ? 'Tokenizer (before end())' : 'Tokenizer'),
        h('dl', {},
          h('dt', {}, 'state'), h('dd', { id: 'tokenizer-state' }, `${state!.state} state`, h('span', { class: 'note' }, ` §${state!.section}`)),
          h('dt', {}, 'held text'), h('dd', { id: 'held-text' }, state!.heldText === '' ? '(none)' : visible(state!.heldText, 120)),
          h('dt', {}, 'pending token'), h('dd', { id: 'pending-token' }, pending === null ? '(none)' : `${pending.type}${pending.name !== null ? ` “${pending.name}”` : ''} at ${pending.start}`),
          h('dt', {}, 'text kind'), h('dd', {}, state!.textKind),
          model.bytes !== null
            ? [h('dt', {}, 'decoder'), h('dd', { id: 'decoder-state' }, `${model.bytes.encoding}: this step’s bytes gave ${visible(last.text, 40)}${last.decoderHolds ? '; it holds the first bytes of a character the split cut' : ''}`)]
            : null,
        ),
        h('h3', {}, 'Tree builder'),
        h('dl', {},
          h('dt', {}, 'insertion mode'), h('dd', { id: 'insertion-mode' }, tb.mode),
          h('dt', {}, 'open elements'), h('dd', {}, tb.open.join(' > ') || '(none)'),
        ),
      ),
      h('div', { class: 'panel' },
        h('h3', {}, `Tokens so far: ${run.tokens.length} (${newTokens.length} new)`),
        h('ol', { class: 'step-tokens', start: String(Math.max(0, run.tokens.length - 200)) },
          run.tokens.slice(-200).map((t, i, arr) => h('li', { class: run.tokens.length - arr.length + i >= newTokensFrom ? 'new' : '' }, `${t.type} `, h('code', {}, visible(t.raw, 60)), ` ${describeToken(t)}`))),
        h('h3', {}, `Parse errors so far: ${run.errors.length} (${run.errors.length - (prev?.errors ?? 0)} new)`),
        run.errors.length === 0 ? null : h('ol', { class: 'errors' }, run.errors.slice(-20).map((e, i, arr) =>
          h('li', { class: run.errors.length - arr.length + i >= (prev?.errors ?? 0) ? 'new' : '' }, h('code', {}, e.code), ` ${e.stage} at ${e.offset}`))),
        h('h3', {}, `Mutation events: ${run.sink.events.length} (${run.sink.events.length - newEventsFrom} new)`),
        eventList(run.sink.events, newEventsFrom, 300),
      ),
      h('div', { class: 'panel' }, h('h3', {}, 'The tree so far'), treeView(run.sink.tree, { budget: 300 })),
    );
  }
}

/** Inputs up to this many characters (or bytes) are checked in one go; longer ones in slices. */
const CHECK_AT_ONCE = 100_000;

function parseSplits(text: string): number[] {
  return text.split(/[\s,]+/).filter(Boolean).map(Number);
}
