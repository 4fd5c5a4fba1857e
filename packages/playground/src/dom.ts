/** Small DOM helpers for the page (plain DOM, no framework). */

type Child = Node | string | null | undefined | false;

/** `h('div', { class: 'x', onclick }, child…)`: an element with attributes, listeners and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') el.className = String(v);
    else if (k in el && k !== 'list' && typeof v !== 'string') (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el: Element, children: (Child | Child[])[]): void {
  for (const c of children) {
    if (Array.isArray(c)) append(el, c);
    else if (c === null || c === undefined || c === false) continue;
    else el.append(c);
  }
}

/** Replaces `el`'s children. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A string as a JSON-ish literal with control characters, NUL and lone surrogates visible. */
export function visible(s: string, max = 200): string {
  const cut = s.length > max ? s.slice(0, max) : s;
  const shown = JSON.stringify(cut).replace(/[\u007f-\u009f\ufffd]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return s.length > max ? `${shown}… (${s.length} chars)` : shown;
}

/** At most `max` characters of `s`, with a note of how many more there are (long outputs stay quick to lay out). */
export function capped(s: string, max = 200_000): string {
  return s.length <= max ? s : `${s.slice(0, max)}\n… (${s.length - max} more characters not shown)`;
}
