/**
 * Rewrite view: sluice's `HTMLRewriter` (Cloudflare Workers' API) on the input — a selector and an edit
 * picked from a list, or a handler you write — the output with a diff against the input (everything a
 * handler did not touch is the input's own text, so only the change differs), and the elements the
 * selector matched marked in the tree.
 */
import { HTMLRewriter, type Element, type ElementUnit, type Node as SluiceNode, NodeType } from 'sluice';
import { diffText, type DiffPart } from '../diff.js';
import { fill, h } from '../dom.js';
import type { Model } from '../model.js';
import { treeView } from '../tree-view.js';
import { showSource } from './tree.js';
import type { View } from './view.js';

type Edit = 'setAttribute' | 'removeAttribute' | 'remove' | 'replace' | 'append' | 'before' | 'text' | 'custom';

const EDITS: Record<Edit, string> = {
  setAttribute: 'set attribute',
  removeAttribute: 'remove attribute',
  remove: 'remove the element',
  replace: 'replace the element',
  append: 'append content',
  before: 'insert before',
  text: 'text edit (find → replace)',
  custom: 'my own handler',
};

/** A matched element as the handler saw it. */
interface Match {
  tagName: string;
  offset: number;
  implied: boolean;
}

export class RewriteView implements View {
  readonly id = 'rewrite';
  readonly title = 'Rewrite';
  readonly element = h('section', { class: 'view' });
  private model: Model | null = null;
  readonly selector = h('input', { type: 'text', id: 'rewrite-selector', value: 'a[href]', size: '24', 'aria-label': 'Selector' });
  readonly edit = h('select', { id: 'rewrite-edit', 'aria-label': 'Edit' }, Object.entries(EDITS).map(([k, v]) => h('option', { value: k }, v)));
  readonly arg1 = h('input', { type: 'text', id: 'rewrite-arg1', value: 'data-seen', size: '14', 'aria-label': 'Name, content or text to find' });
  readonly arg2 = h('input', { type: 'text', id: 'rewrite-arg2', value: 'yes', size: '18', 'aria-label': 'Value or replacement' });
  readonly html = h('input', { type: 'checkbox', id: 'rewrite-html', 'aria-label': 'Content is HTML' });
  readonly code = h('textarea', { id: 'rewrite-code', rows: '4', cols: '60', spellcheck: 'false', 'aria-label': 'Element handler body' },
    "// `el` is the matched element (ElementUnit). Runs with new Function on this page, nowhere else.\nel.setAttribute('data-n', String(el.sourceOffset));\nif (el.implied) el.before('<!-- implied -->', { html: true });");
  private readonly out = h('div', { class: 'rewrite-out' });

  constructor() {
    const rerun = () => this.model !== null && this.render(this.model);
    for (const input of [this.selector, this.arg1, this.arg2, this.code]) input.addEventListener('change', rerun);
    this.edit.addEventListener('change', () => {
      this.describeArgs();
      rerun();
    });
    this.html.addEventListener('change', rerun);
    this.element.append(
      h('div', { class: 'controls' },
        h('label', {}, 'Selector ', this.selector), ' ',
        h('label', {}, 'Edit ', this.edit), ' ',
        this.arg1, ' ', this.arg2, ' ',
        h('label', {}, this.html, ' as HTML'), ' ',
        h('button', { id: 'rewrite-run', onclick: rerun }, 'Rewrite'),
      ),
      h('details', { class: 'custom' }, h('summary', {}, 'My own handler (used when the edit is “my own handler”)'),
        h('p', { class: 'note' }, 'The body of element(el) { … }. It is compiled with new Function in this page: it runs your code, in your browser, on your input — fine for a local playground, never for a page others can feed.'),
        this.code),
      this.out,
    );
    this.describeArgs();
  }

  private describeArgs(): void {
    const e = this.edit.value as Edit;
    const [a, b] = ({
      setAttribute: ['attribute name', 'value'], removeAttribute: ['attribute name', ''], remove: ['', ''], replace: ['new content', ''],
      append: ['content', ''], before: ['content', ''], text: ['find', 'replace with'], custom: ['', ''],
    } as Record<Edit, [string, string]>)[e];
    this.arg1.hidden = a === '';
    this.arg2.hidden = b === '';
    this.arg1.placeholder = a;
    this.arg2.placeholder = b;
  }

  render(model: Model): void {
    this.model = model;
    model.source.render(model.input, []);
    if (model.settings.context !== null) {
      fill(this.out, h('p', { class: 'note' }, 'The rewriter works on documents; clear the fragment context to rewrite.'));
      return;
    }
    const matches: Match[] = [];
    let output = '';
    let error: unknown = null;
    try {
      const handler = this.handler();
      const rewriter = new HTMLRewriter({ scripting: model.settings.scripting }).on(this.selector.value, {
        element(el: ElementUnit) {
          matches.push({ tagName: el.tagName, offset: el.sourceOffset, implied: el.implied });
          return handler.element?.(el);
        },
        ...(handler.text ? { text: handler.text } : {}),
      });
      const chunks: string[] = [];
      const t = rewriter.createTransformer((c) => chunks.push(c));
      const w = t.write(model.input);
      const e = t.end();
      if (w instanceof Promise || e instanceof Promise) throw new Error('an async handler: the playground runs handlers synchronously');
      output = chunks.join('');
    } catch (err) {
      error = err;
    }
    if (error !== null) {
      fill(this.out, h('p', { class: 'bad', id: 'rewrite-error' }, `The rewrite threw: ${String((error as Error).message ?? error)}`));
      return;
    }
    const parts = diffText(model.input, output);
    const changed = parts.filter((p) => p.kind !== 'same');
    const same = parts.filter((p) => p.kind === 'same').reduce((n, p) => n + p.text.length, 0);
    const marked = matchedNodes(model.result, matches);
    fill(
      this.out,
      h('p', { class: 'note', id: 'rewrite-summary' },
        `${matches.length} element${matches.length === 1 ? '' : 's'} matched ${JSON.stringify(this.selector.value)}; `,
        changed.length === 0
          ? 'the output is the input, unchanged.'
          : `${changed.filter((p) => p.kind === 'del').reduce((n, p) => n + p.text.length, 0)} characters removed, ${changed.filter((p) => p.kind === 'ins').reduce((n, p) => n + p.text.length, 0)} inserted; the other ${same} are the input’s own, byte for byte.`),
      model.bytes !== null ? h('p', { class: 'note' }, 'Bytes in: the rewrite here runs on the decoded text (the byte rewriter copies untouched bytes as they came).') : null,
      h('div', { class: 'split-panels' },
        h('div', {}, h('h3', {}, 'Output, with its differences from the input'),
          h('pre', { class: 'output diff', id: 'rewrite-diff' }, diffNodes(parts))),
        h('div', {}, h('h3', {}, 'Matched elements in the tree'), treeView(model.result, { marked, onSelect: (n) => showSource(model, n) })),
      ),
    );
  }

  /** The handlers for the picked edit. */
  private handler(): { element?: (el: ElementUnit) => void; text?: (chunk: { text: string; replace(c: string, o?: { html: boolean }): unknown }) => void } {
    const a = this.arg1.value;
    const b = this.arg2.value;
    const html = { html: this.html.checked };
    switch (this.edit.value as Edit) {
      case 'setAttribute': return { element: (el) => void el.setAttribute(a, b) };
      case 'removeAttribute': return { element: (el) => void el.removeAttribute(a) };
      case 'remove': return { element: (el) => void el.remove() };
      case 'replace': return { element: (el) => void el.replace(a, html) };
      case 'append': return { element: (el) => void el.append(a, html) };
      case 'before': return { element: (el) => void el.before(a, html) };
      case 'text':
        // A chunk's `text` is its source text: replacing it as HTML keeps the rest exactly as written.
        return { text: (chunk) => void (a !== '' && chunk.text.includes(a) && chunk.replace(chunk.text.replaceAll(a, b), { html: true })) };
      case 'custom': {
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a local playground: the user's own code (said on the page)
        const fn = new Function('el', this.code.value) as (el: ElementUnit) => void;
        return { element: fn };
      }
    }
  }
}

/** Below this length the whole output is shown; above it, each change with some context around it. */
const WHOLE = 20_000;
const CONTEXT = 80;
const MAX_CHANGES = 300;

/** The output with its changes marked: all of it, or for a long one, the changes in context. */
function diffNodes(parts: readonly DiffPart[]): (Node | string)[] {
  const total = parts.reduce((n, p) => n + p.text.length, 0);
  const mark = (p: DiffPart) => h(p.kind as 'ins' | 'del', { class: p.kind }, p.text.length > 2000 ? `${p.text.slice(0, 2000)}… (${p.text.length} characters)` : p.text);
  if (total <= WHOLE) return parts.map((p) => (p.kind === 'same' ? p.text : mark(p)));
  const out: (Node | string)[] = [];
  let changes = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p.kind !== 'same') {
      if (changes++ < MAX_CHANGES) out.push(mark(p));
      continue;
    }
    if (changes >= MAX_CHANGES) break;
    // Unchanged text: the end of it before a change, the start of it after one, the rest elided.
    const head = i === 0 ? '' : p.text.slice(0, CONTEXT);
    const tail = i === parts.length - 1 ? '' : p.text.slice(-CONTEXT);
    if (p.text.length <= 2 * CONTEXT + 20) out.push(p.text);
    else out.push(head, h('span', { class: 'elided' }, ` … ${p.text.length - head.length - tail.length} unchanged characters … `), tail);
  }
  const left = parts.filter((p) => p.kind !== 'same').length - MAX_CHANGES;
  if (left > 0) out.push(h('span', { class: 'elided' }, `\n… ${left} more changes`));
  return out;
}

/**
 * The DOM elements of the input's tree the handler fired on: by the start tag's offset and name; an
 * implied element (no start tag) is the next implied element of its name, in tree order.
 */
function matchedNodes(root: SluiceNode, matches: readonly Match[]): Set<SluiceNode> {
  const byStart = new Map<string, Element[]>();
  const implied = new Map<string, Element[]>();
  // Iterative walk (template contents are not matched by the rewriter).
  const stack: SluiceNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType === NodeType.ELEMENT_NODE) {
      const el = n as Element;
      const loc = el.sourceLocation;
      const map = loc === null ? implied : byStart;
      const key = loc === null ? el.localName : `${loc.start}`;
      (map.get(key) ?? map.set(key, []).get(key)!).push(el);
    }
    const kids = n.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  const out = new Set<SluiceNode>();
  const used = new Map<string, number>();
  for (const m of matches) {
    if (m.implied) {
      const list = implied.get(m.tagName) ?? [];
      const i = used.get(m.tagName) ?? 0;
      used.set(m.tagName, i + 1);
      if (list[i] !== undefined) out.add(list[i]);
    } else {
      for (const el of byStart.get(`${m.offset}`) ?? []) out.add(el);
    }
  }
  return out;
}
