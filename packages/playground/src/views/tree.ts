/** DOM tree view: the tree sluice builds (`parse` / `parseFragment`), collapsible, namespaces and template contents shown. */
import { type Element, type Node } from 'sluice';
import { fill, h } from '../dom.js';
import type { Model } from '../model.js';
import { treeView } from '../tree-view.js';
import type { View } from './view.js';

export class TreeView implements View {
  readonly id = 'tree';
  readonly title = 'DOM tree';
  readonly element = h('section', { class: 'view' });

  render(model: Model): void {
    model.source.render(model.input, []);
    const doc = model.result;
    const mode = (doc as { mode?: string }).mode;
    const charset = (doc as { characterSet?: string }).characterSet;
    fill(
      this.element,
      h('p', { class: 'note' },
        model.settings.context === null
          ? `parse(${model.bytes !== null ? 'bytes' : 'text'}, { scripting: ${model.settings.scripting} }) — document mode ${mode ?? '?'}, characterSet ${charset ?? '?'}. Click a node (or Enter on it) to see its source; the arrow keys move, open and close.`
          : `parseFragment(text, ${JSON.stringify(model.settings.context)}, { scripting: ${model.settings.scripting} }). Click a node (or Enter on it) to see its source; the arrow keys move, open and close.`),
      treeView(doc, { onSelect: (n) => showSource(model, n) }),
    );
  }
}

/** Marks a node's source (an element's start and end tags) in the source view. */
export function showSource(model: Model, node: Node): void {
  const loc = node.sourceLocation;
  const end = (node as Element).endTagLocation ?? null;
  const marks = [];
  if (loc !== null) marks.push({ from: loc.start, to: loc.end, cls: 'focus', title: 'start tag / node' });
  if (end !== null && end !== undefined) marks.push({ from: end.start, to: end.end, cls: 'focus', title: 'end tag' });
  model.source.render(model.input, marks);
  model.source.reveal('focus');
}
