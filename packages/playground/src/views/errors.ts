/** Parse errors view: every parse error of both stages with its position, marked in the input. */
import { fill, h } from '../dom.js';
import type { Model } from '../model.js';
import type { Mark } from '../source-view.js';
import type { View } from './view.js';

export class ErrorsView implements View {
  readonly id = 'errors';
  readonly title = 'Parse errors';
  readonly element = h('section', { class: 'view' });

  render(model: Model): void {
    const errors = [...model.full.errors].sort((a, b) => a.offset - b.offset);
    const text = model.input;
    const markOf = (offset: number): Mark => {
      // An error is at a character; at the end of input, mark the last one.
      const from = Math.min(offset, Math.max(0, text.length - 1));
      return { from, to: Math.min(text.length, from + 1), cls: 'error' };
    };
    const marks = errors.map((e) => ({ ...markOf(e.offset), title: `${e.stage}: ${e.code}` }));
    model.source.render(text, marks);
    const list = h('ol', { class: 'errors' });
    for (const e of errors.slice(0, 1000)) {
      const show = () => {
        model.source.render(text, [...marks, { ...markOf(e.offset), cls: 'error focus' }]);
        model.source.reveal('focus');
      };
      list.append(h('li', { tabindex: '0', onclick: show, onkeydown: (ev: KeyboardEvent) => ev.key === 'Enter' && show() },
        h('code', {}, e.code), ` — ${e.stage}, line ${e.line}, column ${e.col} (offset ${e.offset})`));
    }
    fill(
      this.element,
      h('p', { class: 'note' }, errors.length === 0 ? 'No parse errors.' : `${errors.length} parse errors${errors.length > 1000 ? ' (the first 1000 listed)' : ''} (the standard’s codes; the tree builder’s where the standard names none). Bad HTML is never an exception: it parses.`),
      list,
    );
  }
}
