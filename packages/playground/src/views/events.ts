/** Mutation events view: what the tree builder told its sink, in order (sluice's RecordingSink lines). */
import type { RecordedEvent } from 'sluice';
import { fill, h } from '../dom.js';
import type { Model } from '../model.js';
import type { View } from './view.js';

const PAGE = 1000;

/** A list of events; `fresh` from this index on are marked new. */
export function eventList(events: readonly RecordedEvent[], fresh = events.length, limit = PAGE): HTMLElement {
  const list = h('ol', { class: 'events', start: '0' });
  const from = Math.max(0, Math.min(fresh, events.length - limit));
  if (from > 0) list.setAttribute('start', String(from));
  for (let i = from; i < events.length; i++) {
    const e = events[i];
    const { op, ...rest } = e;
    list.append(h('li', { class: i >= fresh ? 'new' : '' }, h('span', { class: 'op' }, op), ' ', JSON.stringify(rest)));
  }
  return list;
}

export class EventsView implements View {
  readonly id = 'events';
  readonly title = 'Mutation events';
  readonly element = h('section', { class: 'view' });

  render(model: Model): void {
    model.source.render(model.input, []);
    const events = model.full.sink.events;
    fill(
      this.element,
      h('p', { class: 'note' }, `${events.length} events${events.length > 2000 ? ' (the last 2000 shown)' : ''}. Node ids: the document is 0; each create* gives the next id (a template's contents get the id after it). Text has no id.`),
      eventList(events, events.length, 2000),
    );
  }
}
