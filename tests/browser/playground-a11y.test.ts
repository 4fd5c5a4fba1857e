/**
 * The playground page is accessible and quick (issue 18 item 8), in Debian's Chromium (see
 * helpers/playground.ts for the launch and the server):
 *
 * - keyboard only (`page.keyboard`: Tab, arrows, Enter, Space): pick an example, switch to each view
 *   (WAI-ARIA tabs), step the stepper and see the tokenizer's state change, type split points, open and
 *   close tree items (WAI-ARIA tree view), run a rewrite; every control reached has a visible focus outline;
 * - every interactive element has an accessible name, as Chromium's own accessibility tree computes it
 *   (CDP Accessibility.getFullAXTree);
 * - at 1280×800 and at a phone's 390×844, for every view: no horizontal scrolling of the page, the main
 *   controls do not overlap, no text under 12 px; a screenshot of each under test-output/playground/;
 * - a ~1 MB page (the corpus example repeated): the tree view draws a bounded number of DOM nodes until
 *   the user opens more, and the page keeps running frames afterwards. The long tasks of each view are
 *   reported (printed), never asserted: the machine is shared and timings are noise.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { available, CI, openPlaygroundForSuite, shots, showView, typeInto, VIEWS, type Playground } from './helpers/playground.js';

describe.skipIf(!available && !CI)('the playground page: keyboard, names, layout, a 1 MB page', () => {
  let opened: Playground | undefined;
  let page: Page;
  let problems: string[] = [];
  openPlaygroundForSuite((o) => {
    opened = o;
    ({ page, problems } = o);
  });

  /** What has the focus: its id, role, and whether a focus outline is drawn on it (or on its row, for a tree item). */
  const focused = () => page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (el === null || el === document.body) return { id: '', role: '', tag: 'body', outlined: false, expanded: null as string | null, text: '' };
    const styled = el.getAttribute('role') === 'treeitem' ? (el.querySelector(':scope > .row') as HTMLElement) : el;
    const s = getComputedStyle(styled);
    return {
      id: el.id, role: el.getAttribute('role') ?? '', tag: el.localName, expanded: el.getAttribute('aria-expanded'),
      outlined: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, text: (el.textContent ?? '').slice(0, 60),
    };
  });

  /** Presses Tab (Shift+Tab with `back`) until the focused element matches `selector`; fails if it never does. */
  async function tabTo(selector: string, back = false): Promise<void> {
    for (let i = 0; i < 80; i++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
        const f = await focused();
        expect(f.outlined, `a focus outline on ${selector}`).toBe(true);
        return;
      }
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    }
    throw new Error(`Tab never reached ${selector} (focus ends on ${JSON.stringify(await focused())})`);
  }

  const revision = async () => Number(await page.getAttribute('body', 'data-revision'));
  const selectedTab = () => page.$eval('[role=tab][aria-selected=true]', (t) => t.id);

  it('works with the keyboard alone: example, tabs, stepper, split points, tree, rewrite', async () => {
    await page.goto(opened!.url);
    await page.waitForSelector('body[data-ready]');
    // The example picker: a closed <select> changes with the arrow keys.
    await tabTo('#examples');
    const before = await revision();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((n) => Number(document.body.dataset.revision) > n, before);
    expect(await page.inputValue('#examples')).toBe('1');
    expect(await page.inputValue('#input')).toContain('<table>');

    // The tabs: one tab stop (the selected tab); ←/→ select and show the next, Home/End the ends.
    await tabTo('[role=tab][aria-selected=true]');
    expect(await selectedTab()).toBe('tab-stepper');
    for (const id of VIEWS.slice(1)) {
      await page.keyboard.press('ArrowRight');
      expect(await selectedTab()).toBe(`tab-${id}`);
      expect((await focused()).id).toBe(`tab-${id}`);
      expect(await page.isVisible(`#panel-${id}`)).toBe(true);
      expect(await page.$$eval('[role=tabpanel]:not([hidden])', (ps) => ps.map((p) => p.id))).toEqual([`panel-${id}`]);
      const tab = await page.$eval(`#tab-${id}`, (t) => ({ controls: t.getAttribute('aria-controls'), tabIndex: (t as HTMLElement).tabIndex }));
      expect(tab).toEqual({ controls: `panel-${id}`, tabIndex: 0 });
    }
    await page.keyboard.press('ArrowRight'); // wraps around
    expect(await selectedTab()).toBe('tab-stepper');
    await page.keyboard.press('End');
    expect(await selectedTab()).toBe('tab-differential');
    await page.keyboard.press('Home');
    expect(await selectedTab()).toBe('tab-stepper');
    expect(await page.isVisible('#panel-stepper')).toBe(true);
    // Tab leaves the tab list for the panel shown.
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('panel-stepper');

    // The stepper: type split points, step twice (Enter, then Space), see the tokenizer's state change.
    await typeInto(page, '<p class="intro">Fish &amp; chips</p>');
    await page.focus('#tab-stepper');
    await tabTo('#split-points');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5, 12');
    await page.keyboard.press('Enter');
    expect(await page.inputValue('#split-points')).toBe('5, 12');
    await tabTo('#step-reset');
    await page.keyboard.press('Enter');
    await tabTo('#step');
    expect(await page.textContent('#step-status')).toMatch(/^Step 0 of 4/);
    const states: string[] = [await page.evaluate(() => document.getElementById('tokenizer-state')?.textContent ?? '(none)')];
    await page.keyboard.press('Enter');
    states.push((await page.textContent('#tokenizer-state'))!);
    await page.keyboard.press('Space');
    states.push((await page.textContent('#tokenizer-state'))!);
    // After "<p cl": the attribute name state; after "ass="i": the attribute value (double-quoted) state.
    expect(states[0]).toBe('(none)');
    expect(states[1]).toMatch(/^attribute name state/);
    expect(states[2]).toMatch(/^attribute value \(double-quoted\) state/);
    await tabTo('#step-all');
    await page.keyboard.press('Enter');
    expect(await page.textContent('#final-check')).toMatch(/^✓ In 3 chunks/);

    // The tree: Tab reaches its one tab stop; ↓ moves, ← closes, → opens then goes in, Space and Enter toggle.
    await page.focus('#tab-stepper');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await selectedTab()).toBe('tab-tree');
    await tabTo('#panel-tree [role=treeitem]');
    let f = await focused();
    expect(f.role).toBe('treeitem');
    // The first item with children (html).
    for (let i = 0; i < 5 && f.expanded === null; i++) {
      await page.keyboard.press('ArrowDown');
      f = await focused();
    }
    expect(f.expanded).toBe('true');
    expect(f.text).toMatch(/^<html>/);
    const visibleItems = () => page.$$eval('#panel-tree [role=treeitem]', (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);
    const open = await visibleItems();
    await page.keyboard.press('ArrowLeft');
    expect((await focused()).expanded).toBe('false');
    expect(await visibleItems()).toBeLessThan(open);
    await page.keyboard.press('ArrowRight');
    expect((await focused()).expanded).toBe('true');
    expect(await visibleItems()).toBe(open);
    await page.keyboard.press('Space');
    expect((await focused()).expanded).toBe('false');
    await page.keyboard.press('Enter');
    expect((await focused()).expanded).toBe('true');
    await page.keyboard.press('ArrowRight');
    expect((await focused()).text).toMatch(/^<head>/);
    await page.keyboard.press('ArrowDown');
    expect((await focused()).text).toMatch(/^<body>/);
    await page.keyboard.press('ArrowRight');
    expect((await focused()).text).toMatch(/^<p class="intro">/);
    // Enter chose the node: its source (start and end tags) is marked in the source view; and closed it.
    await page.keyboard.press('Enter');
    expect(await page.$$eval('#source-holder .focus', (els) => els.map((e) => e.textContent))).toEqual(['<p class="intro">', '</p>']);
    expect((await focused()).expanded).toBe('false');
    await page.keyboard.press('ArrowLeft'); // goes to body
    expect((await focused()).text).toMatch(/^<body>/);
    await page.keyboard.press('ArrowLeft'); // closes body
    expect((await focused()).expanded).toBe('false');
    await page.keyboard.press('ArrowLeft'); // goes to html
    expect((await focused()).text).toMatch(/^<html>/);

    // The rewrite form.
    await page.focus('#tab-tree');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    expect(await selectedTab()).toBe('tab-rewrite');
    await tabTo('#rewrite-selector');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('p.intro');
    await tabTo('#rewrite-edit');
    await tabTo('#rewrite-arg1');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('data-x');
    await tabTo('#rewrite-run');
    await page.keyboard.press('Enter');
    expect(await page.textContent('#rewrite-summary')).toMatch(/^1 element matched/);
    expect(await page.textContent('#rewrite-diff')).toContain('data-x');
    expect(problems).toEqual([]);
  });

  it('gives every interactive element an accessible name (Chromium’s accessibility tree)', async () => {
    const interactive = new Set(['button', 'textbox', 'combobox', 'checkbox', 'spinbutton', 'tab', 'treeitem', 'link', 'listbox', 'radio', 'slider', 'searchbox', 'menuitem', 'option']);
    const cdp = await page.context().newCDPSession(page);
    const unnamed: string[] = [];
    let checked = 0;
    for (const id of VIEWS) {
      await showView(page, id);
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { ignored: boolean; role?: { value: string }; name?: { value: string }; backendDOMNodeId?: number }[] };
      for (const n of nodes) {
        const role = n.role?.value ?? '';
        if (n.ignored || !interactive.has(role)) continue;
        checked++;
        if ((n.name?.value ?? '').trim() === '') unnamed.push(`${id}: a ${role} (backend node ${n.backendDOMNodeId})`);
      }
    }
    // Also by the DOM: every form control is labelled (<label for>, an enclosing <label>, aria-label(ledby)).
    const unlabelled = await page.$$eval('input, select, textarea, button', (els) => els.filter((e) => {
      const c = e as HTMLInputElement;
      return !(c.labels?.length || c.getAttribute('aria-label') || c.getAttribute('aria-labelledby') || (c.localName === 'button' && c.textContent!.trim() !== ''));
    }).map((e) => e.outerHTML.slice(0, 80)));
    console.log(`accessible names: ${checked} interactive accessibility nodes checked over ${VIEWS.length} views`);
    expect(checked).toBeGreaterThan(30);
    expect(unnamed).toEqual([]);
    expect(unlabelled).toEqual([]);
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    it(`is readable at ${viewport.width}×${viewport.height}: no horizontal scroll, controls apart, text ≥ 12 px`, async () => {
      await page.setViewportSize(viewport);
      await page.selectOption('#examples', '0');
      for (const id of VIEWS) {
        await showView(page, id);
        if (id === 'stepper') for (let i = 0; i < 3; i++) await page.click('#step');
        const layout = await page.evaluate(() => {
          const shown = (e: Element) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && (e as HTMLElement).offsetParent !== null;
          };
          // The main controls: the options, the editor, the tabs, and the shown view's controls.
          const controls = [...document.querySelectorAll('header .options > label, #input, [role=tab], [role=tabpanel]:not([hidden]) .controls > *')].filter(shown);
          const boxes = controls.map((e) => ({ what: e.id || e.localName + (e.textContent ? ` "${e.textContent.trim().slice(0, 20)}"` : ''), r: e.getBoundingClientRect() }));
          const overlaps: string[] = [];
          for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
              const a = boxes[i].r;
              const b = boxes[j].r;
              // Touching edges (sub-pixel rounding) is not overlapping.
              if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5) overlaps.push(`${boxes[i].what} × ${boxes[j].what}`);
            }
          }
          const offscreen = boxes.filter((b) => b.r.left < 0 || b.r.right > innerWidth + 0.5).map((b) => b.what);
          // Every shown text's font size.
          const small = new Set<string>();
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
            if (n.textContent!.trim() === '') continue;
            const el = n.parentElement!;
            if (el.offsetParent === null && getComputedStyle(el).position !== 'fixed') continue;
            const size = parseFloat(getComputedStyle(el).fontSize);
            if (size < 12) small.add(`${el.localName}.${el.className} ${size}px`);
          }
          return { scrollWidth: document.documentElement.scrollWidth, innerWidth, controls: boxes.length, overlaps, offscreen, small: [...small] };
        });
        expect(layout.scrollWidth, `view ${id}: the page scrolls sideways`).toBeLessThanOrEqual(layout.innerWidth);
        expect(layout.controls).toBeGreaterThan(10);
        expect(layout.overlaps, `view ${id}`).toEqual([]);
        expect(layout.offscreen, `view ${id}`).toEqual([]);
        expect(layout.small, `view ${id}`).toEqual([]);
        await page.screenshot({ path: join(shots, `${id}-${viewport.width}x${viewport.height}.png`), fullPage: false });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(problems).toEqual([]);
    });
  }

  it('draws the tree of a ~1 MB page lazily and keeps the page running', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const options = await page.$$eval('#examples option', (os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent!]));
    await page.selectOption('#examples', options.find(([, t]) => /corpus/.test(t))![0]);
    const corpus = await page.inputValue('#input');
    const big = corpus.repeat(Math.ceil(1_000_000 / corpus.length));
    await showView(page, 'tree');
    // The probes: long tasks (with their durations), and frames and timers that keep firing.
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[]; frames: number; timers: number };
      w.longTasks = [];
      w.frames = 0;
      w.timers = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longTasks.push(Math.round(e.duration));
      }).observe({ type: 'longtask' });
      const frame = () => {
        w.frames++;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      setInterval(() => w.timers++, 20);
    });
    const probes = () => page.evaluate(() => {
      const w = window as unknown as { longTasks: number[]; frames: number; timers: number };
      return { longTasks: w.longTasks.splice(0), frames: w.frames, timers: w.timers };
    });
    const report: string[] = [];
    await probes();
    await typeInto(page, big);
    const drawn = await page.evaluate(() => ({
      nodes: document.querySelectorAll('#panel-tree *').length,
      items: document.querySelectorAll('#panel-tree [role=treeitem]').length,
      more: document.querySelectorAll('#panel-tree [role=treeitem].more').length,
      collapsed: document.querySelectorAll('#panel-tree [role=treeitem][aria-expanded=false]').length,
    }));
    // The page is not hung: frames and timers fire after the tree is drawn.
    const after = await probes();
    await page.waitForFunction((p) => {
      const w = window as unknown as { frames: number; timers: number };
      return w.frames >= p.frames + 5 && w.timers >= p.timers + 5;
    }, after, { timeout: 30_000 });
    await page.screenshot({ path: join(shots, 'tree-1mb.png') });
    report.push(`${big.length} characters: tree view drew ${drawn.nodes} DOM nodes (${drawn.items} items, ${drawn.collapsed} closed, ${drawn.more} "more" items); long tasks ${JSON.stringify(after.longTasks)} ms`);
    expect(big.length).toBeGreaterThan(1_000_000);
    expect(drawn.nodes).toBeLessThan(5000);
    expect(drawn.items).toBeGreaterThan(50);
    // The page has thousands of elements: most are behind closed items and "more" items.
    expect(drawn.collapsed + drawn.more).toBeGreaterThan(0);

    // Showing more, by the keyboard: the "more" item draws the next batch only.
    if (drawn.more > 0) {
      await page.focus('#panel-tree [role=treeitem].more');
      await page.keyboard.press('Enter');
      const more = await page.evaluate(() => document.querySelectorAll('#panel-tree *').length);
      report.push(`after one "more": ${more} DOM nodes`);
      expect(more).toBeGreaterThan(drawn.nodes);
      expect(more).toBeLessThan(drawn.nodes + 5000);
    }
    // Opening a closed item draws its children (and no more than a batch of them).
    await page.focus('#panel-tree [role=treeitem][aria-expanded=false]');
    const beforeOpen = await page.evaluate(() => document.querySelectorAll('#panel-tree *').length);
    await page.keyboard.press('ArrowRight');
    expect((await focused()).expanded).toBe('true');
    const opened2 = await page.evaluate(() => document.querySelectorAll('#panel-tree *').length);
    expect(opened2).toBeGreaterThan(beforeOpen);
    expect(opened2).toBeLessThan(beforeOpen + 5000);

    // The other views of the same input: their long tasks, reported.
    for (const id of VIEWS.filter((v) => v !== 'tree')) {
      await probes();
      await showView(page, id);
      // The stepper checks the split run against the one-shot parse in slices: wait for its verdict.
      if (id === 'stepper') await page.waitForFunction(() => /^[✓✗]/.test(document.getElementById('final-check')!.textContent!), undefined, { timeout: 120_000 });
      const p = await probes();
      const nodes = await page.evaluate((v) => document.querySelectorAll(`#panel-${v} *`).length, id);
      report.push(`${id}: ${nodes} DOM nodes; long tasks ${JSON.stringify(p.longTasks)} ms`);
    }
    console.log(`1 MB page:\n  ${report.join('\n  ')}`);
    expect(problems).toEqual([]);
  });
});
