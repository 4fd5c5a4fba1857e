/**
 * The playground page: the input (an editor, examples, the fragment context, scripting), the source view
 * with its marks, and the views as tabs. Every view reads one `Model` of the current input; a change of
 * the input or the options makes a new one and redraws the tab shown.
 */
import { fill, h } from './dom.js';
import { EXAMPLES } from './examples.js';
import { Model } from './model.js';
import { sniffBytes, type ByteInfo, type Settings } from './pipeline.js';
import { SourceView } from './source-view.js';
import { DifferentialView } from './views/differential.js';
import { ErrorsView } from './views/errors.js';
import { EventsView } from './views/events.js';
import { RewriteView } from './views/rewrite.js';
import { SerializedView } from './views/serialized.js';
import { StepperView } from './views/stepper.js';
import { TokensView } from './views/tokens.js';
import { TreeView } from './views/tree.js';
import type { View } from './views/view.js';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const editor = byId<HTMLTextAreaElement>('input');
const examples = byId<HTMLSelectElement>('examples');
const contextInput = byId<HTMLInputElement>('context');
const scripting = byId<HTMLInputElement>('scripting');
const bytesInfo = byId<HTMLElement>('bytes-info');
const tabs = byId<HTMLElement>('tabs');
const panels = byId<HTMLElement>('panels');
const problem = byId<HTMLElement>('problem');

const source = new SourceView();
byId('source-holder').append(source.element);

const stepper = new StepperView();
const rewrite = new RewriteView();
const views: View[] = [stepper, new TokensView(), new TreeView(), new EventsView(), new ErrorsView(), new SerializedView(), rewrite, new DifferentialView()];
let active: View = views[0];
let bytes: ByteInfo | null = null;
let model: Model | null = null;
let settings: Settings = { context: null, scripting: true };
let revision = 0;
/** A note about the options, shown above the source (e.g. bytes and a fragment context together). */
let notice = '';

// The tabs (WAI-ARIA tabs pattern, activation follows focus: ←/→ move between them, Home/End go to the
// first/last; Enter and Space, as on any button, show the focused one; one tab stop, the selected tab).
const tabButtons = views.map((v, i) => {
  const button = h('button', { role: 'tab', id: `tab-${v.id}`, 'aria-controls': `panel-${v.id}`, 'aria-selected': 'false', tabindex: '-1' }, v.title);
  button.addEventListener('click', () => show(v));
  button.addEventListener('keydown', (e) => {
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? views.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const next = views[(to + views.length) % views.length];
    show(next);
    byId(`tab-${next.id}`).focus();
  });
  tabs.append(button);
  v.element.id = `panel-${v.id}`;
  v.element.setAttribute('role', 'tabpanel');
  // Tab from the tab list goes to the panel (WAI-ARIA tabs pattern: a panel is focusable).
  v.element.tabIndex = 0;
  v.element.setAttribute('aria-labelledby', `tab-${v.id}`);
  v.element.hidden = true;
  panels.append(v.element);
  return button;
});

function show(view: View): void {
  if (active === stepper && view !== stepper && model !== null) stepper.leave(model);
  active = view;
  views.forEach((v, i) => {
    v.element.hidden = v !== view;
    tabButtons[i].setAttribute('aria-selected', String(v === view));
    tabButtons[i].tabIndex = v === view ? 0 : -1;
  });
  document.body.dataset.view = view.id;
  draw();
}

function draw(): void {
  if (model === null) return;
  try {
    active.render(model);
    problem.hidden = notice === '';
    problem.textContent = notice;
  } catch (error) {
    // Bad HTML never throws; a bad option (a context that is no tag name) does: say which.
    problem.hidden = false;
    problem.textContent = `This could not be shown: ${(error as Error).message}`;
    console.warn(error);
  }
}

function update(): void {
  const context = contextInput.value.trim();
  settings = { context: context === '' ? null : context, scripting: scripting.checked };
  notice = '';
  if (bytes !== null && settings.context !== null) {
    notice = 'A fragment is parsed from text (the fragment parsing algorithm takes no bytes): the bytes were decoded first.';
    bytes = null;
  }
  drawBytesInfo();
  model = new Model(bytes !== null ? bytes.text : editor.value, bytes, settings, source);
  draw();
  // For tests and tools: a count of the inputs shown so far.
  document.body.dataset.revision = String(++revision);
}

function drawBytesInfo(): void {
  bytesInfo.hidden = bytes === null;
  if (bytes === null) return;
  const hex = [...bytes.bytes.subarray(0, 96)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  fill(bytesInfo,
    h('strong', {}, 'Bytes in: '), `${bytes.bytes.length} bytes, parsed as bytes by sluice’s byte path (parse(bytes) sniffs). Detected encoding: `,
    h('strong', { id: 'detected-encoding' }, bytes.encoding), ` — ${bytes.how}. The editor shows the decoded text; editing it leaves bytes mode.`,
    h('pre', { class: 'hex' }, hex + (bytes.bytes.length > 96 ? ' …' : '')));
}

function load(index: number): void {
  const ex = EXAMPLES[index];
  contextInput.value = ex.context ?? '';
  if (ex.bytes !== undefined) {
    bytes = sniffBytes(ex.bytes);
    editor.value = bytes.text;
  } else {
    bytes = null;
    editor.value = ex.html ?? '';
  }
  if (ex.selector !== undefined) rewrite.selector.value = ex.selector;
  update();
}

EXAMPLES.forEach((ex, i) => examples.append(h('option', { value: String(i) }, ex.name)));
examples.addEventListener('change', () => load(Number(examples.value)));
let timer: ReturnType<typeof setTimeout> | undefined;
editor.addEventListener('input', () => {
  bytes = null;
  clearTimeout(timer);
  timer = setTimeout(update, 200);
});
contextInput.addEventListener('change', update);
scripting.addEventListener('change', update);

load(0);
show(views[0]);
document.body.dataset.ready = 'true';
