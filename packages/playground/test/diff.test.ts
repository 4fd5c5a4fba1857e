/** The playground's diff (src/diff.ts): the parts give back both texts; an insertion is shown as exactly that. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffText, type DiffPart } from '../src/diff.js';

const sides = (parts: DiffPart[]) => ({
  input: parts.filter((p) => p.kind !== 'ins').map((p) => p.text).join(''),
  output: parts.filter((p) => p.kind !== 'del').map((p) => p.text).join(''),
});
const text = fc.string({ unit: fc.constantFrom('a', 'b', '<', '>', '\n', ' ', 'é') });

describe('diffText', () => {
  it('gives back the input (same + del) and the output (same + ins), for any two texts', () => {
    fc.assert(fc.property(text, text, (a, b) => {
      expect(sides(diffText(a, b))).toEqual({ input: a, output: b });
    }));
  });

  it('marks nothing when nothing changed', () => {
    fc.assert(fc.property(text, (a) => {
      expect(diffText(a, a).every((p) => p.kind === 'same')).toBe(true);
    }));
  });

  it('shows an insertion as exactly the inserted characters, and a deletion as exactly the deleted ones', () => {
    fc.assert(fc.property(text, text, text, (x, z, y) => {
      const inserted = diffText(x + y, x + z + y);
      expect(inserted.filter((p) => p.kind === 'del')).toEqual([]);
      expect(inserted.filter((p) => p.kind === 'ins').reduce((n, p) => n + p.text.length, 0)).toBe(z.length);
      const deleted = diffText(x + z + y, x + y);
      expect(deleted.filter((p) => p.kind === 'ins')).toEqual([]);
      expect(deleted.filter((p) => p.kind === 'del').reduce((n, p) => n + p.text.length, 0)).toBe(z.length);
    }));
  });

  it('a rewritten attribute in a long page: only the change differs', () => {
    const page = '<p>line</p>\n'.repeat(2000);
    const out = page.replace('<p>line</p>\n<p>', '<p>line</p>\n<p class="x">');
    expect(diffText(page, out).filter((p) => p.kind !== 'same')).toEqual([{ kind: 'ins', text: ' class="x"' }]);
  });

  it('changes far apart in a long page: each shown where it is, nothing else', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `<p>line ${i}</p>\n`);
    const out = lines.slice();
    out[1] = '<p class="x">line 1</p>\n';
    out[1500] = '<p class="y">line 1500</p>\n';
    out[1900] = '';
    const parts = diffText(lines.join(''), out.join(''));
    const changed = parts.filter((p) => p.kind !== 'same');
    expect(changed.slice(0, 2)).toEqual([{ kind: 'ins', text: ' class="x"' }, { kind: 'ins', text: ' class="y"' }]);
    // The deleted line, or the same characters slid to where the two lines around it repeat them.
    expect(changed.slice(2).map((p) => [p.kind, p.text.length])).toEqual([['del', '<p>line 1900</p>\n'.length]]);
    expect(sides(parts)).toEqual({ input: lines.join(''), output: out.join('') });
  });

  it('thousands of changes spread over a page (past what Myers is given): still each change alone, nearly', () => {
    const lines = Array.from({ length: 6000 }, (_, i) => `<p>line ${i}</p>\n`);
    const out = lines.map((l, i) => (i % 2 === 0 ? l.replace('<p>', '<p class="x">') : l));
    out.splice(3001, 1); // a line deleted too
    const parts = diffText(lines.join(''), out.join(''));
    const changed = parts.filter((p) => p.kind !== 'same');
    // Every change on its own, but near the deleted line (there every other line changed as well, and the
    // walk takes the three lines around it as one run): at most a few parts there.
    expect(changed.filter((p) => p.kind === 'ins' && p.text === ' class="x"').length).toBeGreaterThanOrEqual(2998);
    expect(changed.length).toBeLessThanOrEqual(3005);
    expect(sides(parts)).toEqual({ input: lines.join(''), output: out.join('') });
  });

  it('a page of repeated lines still gives back both texts', () => {
    const lines = Array.from({ length: 2000 }, () => '<p>line</p>\n');
    const out = lines.slice();
    out[1] = '<p class="x">line</p>\n';
    out[1500] = '<p class="y">line</p>\n';
    expect(sides(diffText(lines.join(''), out.join('')))).toEqual({ input: lines.join(''), output: out.join('') });
  });
});
