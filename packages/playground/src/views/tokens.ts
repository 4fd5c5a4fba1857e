/** Tokens view: every raw token of the input — its exact source text and its decoded fields — and its span. */
import { fill, h, visible } from '../dom.js';
import { describeToken, spanOf, type Model } from '../model.js';
import type { Mark } from '../source-view.js';
import type { View } from './view.js';

const PAGE = 500;

export class TokensView implements View {
  readonly id = 'tokens';
  readonly title = 'Tokens';
  readonly element = h('section', { class: 'view' });

  render(model: Model): void {
    const tokens = model.full.tokens;
    const raw = tokens.map((t) => t.raw).join('');
    const roundTrip = raw === model.input;
    const marks: Mark[] = tokens.map((t, i) => ({ ...spanOf(t), cls: i % 2 === 0 ? 'token' : 'token alt', title: `#${i} ${t.type}` }));
    model.source.render(model.input, marks);
    let shown = Math.min(PAGE, tokens.length);
    const body = h('tbody');
    const addRows = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const t = tokens[i];
        const { from: a, to: b } = spanOf(t);
        const row = h(
          'tr',
          {
            tabindex: '0',
            onclick: () => this.focus(model, marks, a, b),
            onkeydown: (e: KeyboardEvent) => e.key === 'Enter' && this.focus(model, marks, a, b),
          },
          h('td', { class: 'num' }, String(i)),
          h('td', {}, t.type),
          h('td', { class: 'raw' }, visible(t.raw, 120)),
          h('td', { class: 'decoded' }, describeToken(t)),
          h('td', { class: 'num' }, `${a}–${b}`),
        );
        body.append(row);
      }
    };
    addRows(0, shown);
    const more = h('button', {
      onclick: () => {
        const next = Math.min(tokens.length, shown + PAGE);
        addRows(shown, next);
        shown = next;
        if (shown >= tokens.length) more.remove();
      },
    }, 'Show more tokens');
    fill(
      this.element,
      h('p', { class: roundTrip ? 'ok' : 'bad', id: 'tokens-round-trip' },
        roundTrip ? `✓ ${tokens.length} tokens; their raw texts, joined, are the input exactly.` : `✗ the tokens’ raw texts do not give back the input.`),
      h('table', { class: 'tokens' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'type'), h('th', {}, 'raw (source text)'), h('th', {}, 'decoded'), h('th', {}, 'span'))),
        body),
      shown < tokens.length ? more : null,
    );
  }

  private focus(model: Model, marks: Mark[], from: number, to: number): void {
    model.source.render(model.input, [...marks, { from, to, cls: 'focus' }]);
    model.source.reveal('focus');
  }
}
