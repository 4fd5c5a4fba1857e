/** Serialized view: the tree written back as HTML (HTML §13.3), and its html5lib test-format dump. */
import { serialize } from 'sluice';
import { capped, fill, h } from '../dom.js';
import type { Model } from '../model.js';
import type { View } from './view.js';

export class SerializedView implements View {
  readonly id = 'serialized';
  readonly title = 'Serialized';
  readonly element = h('section', { class: 'view' });

  render(model: Model): void {
    model.source.render(model.input, []);
    const html = serialize(model.result);
    fill(
      this.element,
      h('h3', {}, 'serialize() — HTML §13.3'),
      h('pre', { class: 'output', id: 'serialized-output' }, capped(html)),
      h('h3', {}, 'The tree in the html5lib test format'),
      h('pre', { class: 'output' }, capped(model.resultDump)),
    );
  }
}
