/**
 * Differential view: the browser's own parse (`DOMParser`) beside sluice's, both dumped in the html5lib
 * tree format, differing lines marked. When they differ, the page tries the known browser deviations and
 * names the ones that explain the difference.
 */
import { differential } from '../browser-tree.js';
import { diffText } from '../diff.js';
import { fill, h } from '../dom.js';
import type { Model } from '../model.js';
import type { View } from './view.js';

const LIMIT = 200_000;

export class DifferentialView implements View {
  readonly id = 'differential';
  readonly title = 'Differential';
  readonly element = h('section', { class: 'view' });

  render(model: Model): void {
    model.source.render(model.input, []);
    const d = differential(model.input, model.settings);
    const parts = diffText(d.sluice + '\n', d.browser + '\n');
    const left = h('pre', { class: 'output dump', id: 'diff-sluice' });
    const right = h('pre', { class: 'output dump', id: 'diff-browser' });
    // Long dumps: up to LIMIT characters a side (a 1 MB page's dump is many times that).
    let shownLeft = 0;
    let shownRight = 0;
    for (const p of parts) {
      if (p.kind !== 'ins' && shownLeft < LIMIT) {
        const text = p.text.slice(0, LIMIT - shownLeft);
        shownLeft += text.length;
        left.append(p.kind === 'same' ? text : h('mark', { class: 'differs' }, text));
      }
      if (p.kind !== 'del' && shownRight < LIMIT) {
        const text = p.text.slice(0, LIMIT - shownRight);
        shownRight += text.length;
        right.append(p.kind === 'same' ? text : h('mark', { class: 'differs' }, text));
      }
    }
    if (d.sluice.length > LIMIT) left.append(`… (${d.sluice.length - shownLeft} more characters)`);
    if (d.browser.length > LIMIT) right.append(`… (${d.browser.length - shownRight} more characters)`);
    const verdict = d.same
      ? h('p', { class: 'ok', id: 'differential-verdict' }, '✓ No differences: the browser built the same tree.')
      : d.explainedBy.length > 0
        ? h('div', { id: 'differential-verdict', class: 'known' },
            h('p', {}, `The trees differ — a known browser deviation: ${d.explainedBy.map((x) => x.name).join(' + ')}.`),
            d.explainedBy.map((x) => h('p', { class: 'note' }, x.explanation)))
        : h('p', { class: 'bad', id: 'differential-verdict' }, '✗ The trees differ, and no known browser deviation explains it. Worth an issue.');
    fill(
      this.element,
      h('p', { class: 'note' },
        `The browser: ${navigator.userAgent.match(/(Chrom(e|ium)|Firefox|Version)\/[\d.]+/)?.[0] ?? navigator.userAgent}, `,
        model.settings.context === null ? 'new DOMParser().parseFromString(input, "text/html")' : `a <${model.settings.context}> element’s innerHTML`,
        '. DOMParser’s document has no browsing context, so scripting is off and a leading BOM is text: sluice is run the same way here.',
        model.bytes !== null ? ' Bytes in: both are given the decoded text.' : ''),
      verdict,
      h('div', { class: 'split-panels' },
        h('div', {}, h('h3', {}, 'sluice'), left),
        h('div', {}, h('h3', {}, 'This browser'), right)),
    );
  }
}
