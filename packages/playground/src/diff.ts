/**
 * A character diff of the rewrite's output against its input, to show that only what a handler changed
 * differs. A rewrite changes a few places in a long text, so the diff splits the problem where the two
 * texts share a long stretch: common prefix and suffix first, then a common substring at least half as
 * long as the longer text (the "half-match" of diff-match-patch, found from seeds by `indexOf`), on each
 * side of it again; what is left is small and goes to Myers' O(ND) algorithm over characters, or, when
 * large, over lines. Iterative (a work stack), as every walk in this project.
 */

/** A piece of the diff: text in both, only in the input (`del`), or only in the output (`ins`). */
export interface DiffPart {
  kind: 'same' | 'del' | 'ins';
  text: string;
}

/** Above this many edits a Myers run gives up and the run is reported as replaced whole. */
const MAX_EDITS = 2000;
/** Myers over characters up to this product of lengths; beyond it, over lines. */
const CHARACTER_LIMIT = 4_000_000;

type Task = { part: DiffPart } | { a: string; b: string; lines: boolean };

/** The diff of `a` (input) and `b` (output), as parts in order: `same` and `del` give `a`, `same` and `ins` give `b`. */
export function diffText(a: string, b: string): DiffPart[] {
  const out: DiffPart[] = [];
  const stack: Task[] = [{ a, b, lines: true }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('part' in task) {
      push(out, task.part.kind, task.part.text);
      continue;
    }
    // Tasks are pushed in reverse order of output.
    const later: Task[] = [];
    step(task.a, task.b, task.lines, later);
    for (let i = later.length - 1; i >= 0; i--) stack.push(later[i]);
  }
  return out;
}

/** One step of the diff of `a` and `b`: parts and smaller tasks, in output order. */
function step(a: string, b: string, lines: boolean, out: Task[]): void {
  if (a === b) {
    out.push({ part: { kind: 'same', text: a } });
    return;
  }
  let p = 0;
  while (p < a.length && p < b.length && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  const ma = a.slice(p, a.length - s);
  const mb = b.slice(p, b.length - s);
  out.push({ part: { kind: 'same', text: a.slice(0, p) } });
  if (ma === '' || mb === '') {
    out.push({ part: { kind: 'del', text: ma } }, { part: { kind: 'ins', text: mb } });
  } else {
    const half = halfMatch(ma, mb);
    if (half !== null) {
      out.push({ a: half.a1, b: half.b1, lines }, { part: { kind: 'same', text: half.common } }, { a: half.a2, b: half.b2, lines });
    } else if (ma.length * mb.length <= CHARACTER_LIMIT) {
      for (const part of myersParts([...ma], [...mb])) out.push({ part });
    } else if (!lines) {
      out.push({ part: { kind: 'del', text: ma } }, { part: { kind: 'ins', text: mb } });
    } else {
      // Large and no long common stretch: lines first, each changed run of lines diffed by characters.
      const la = splitLines(ma);
      const lb = splitLines(mb);
      const ops = myers(la, lb) ?? resync(la, lb);
      let i = 0;
      let j = 0;
      for (let k = 0; k < ops.length; ) {
        if (ops[k] === 0) {
          out.push({ part: { kind: 'same', text: la[i++] } });
          j++;
          k++;
          continue;
        }
        let del = '';
        let ins = '';
        while (k < ops.length && ops[k] !== 0) {
          if (ops[k] < 0) del += la[i++];
          else ins += lb[j++];
          k++;
        }
        out.push({ a: del, b: ins, lines: false });
      }
    }
  }
  out.push({ part: { kind: 'same', text: a.slice(a.length - s) } });
}

/**
 * A common substring of `a` and `b` at least half as long as the longer, and what lies on each side of
 * it, or null. Seeds: the quarter of the longer text starting at its first quarter, and at its middle.
 */
function halfMatch(a: string, b: string): { a1: string; a2: string; b1: string; b2: string; common: string } | null {
  const long = a.length >= b.length ? a : b;
  const short = a.length >= b.length ? b : a;
  if (long.length < 8 || short.length * 2 < long.length) return null;
  const one = halfMatchAt(long, short, Math.ceil(long.length / 4));
  const two = halfMatchAt(long, short, Math.ceil(long.length / 2));
  const best = one === null ? two : two === null ? one : better(one, two) ? one : two;
  if (best === null) return null;
  return a.length >= b.length
    ? { a1: best.long1, a2: best.long2, b1: best.short1, b2: best.short2, common: best.common }
    : { a1: best.short1, a2: best.short2, b1: best.long1, b2: best.long2, common: best.common };
}

interface HalfMatch {
  long1: string;
  long2: string;
  short1: string;
  short2: string;
  common: string;
  /** How far the common stretch is from the diagonal: its offset in the long text less that in the short. */
  shift: number;
}

/** The longer common stretch; of two as long, the one nearer the diagonal (edits are local). */
function better(x: HalfMatch, y: HalfMatch): boolean {
  return x.common.length !== y.common.length ? x.common.length > y.common.length : Math.abs(x.shift) <= Math.abs(y.shift);
}

function halfMatchAt(long: string, short: string, i: number): HalfMatch | null {
  const seed = long.slice(i, i + Math.floor(long.length / 4));
  let best: HalfMatch | null = null;
  // Each place the seed occurs in the short text, extended both ways: a few places in practice; a page
  // of repeated lines has many, so the search starts a little before the diagonal and tries 128 (then,
  // should none be near it, from the start).
  const near = Math.max(0, i - (long.length - short.length) - 256);
  const starts = near > 0 ? [near, 0] : [0];
  for (const start of starts) {
    if (best !== null) break;
    for (let j = short.indexOf(seed, start), tries = 0; j >= 0 && tries < 128; j = short.indexOf(seed, j + 1), tries++) {
    let forward = 0;
    while (i + forward < long.length && j + forward < short.length && long.charCodeAt(i + forward) === short.charCodeAt(j + forward)) forward++;
    let back = 0;
    while (back < i && back < j && long.charCodeAt(i - 1 - back) === short.charCodeAt(j - 1 - back)) back++;
    if ((back + forward) * 2 < long.length) continue;
    const candidate: HalfMatch = {
      long1: long.slice(0, i - back),
      long2: long.slice(i + forward),
      short1: short.slice(0, j - back),
      short2: short.slice(j + forward),
      common: short.slice(j - back, j + forward),
      shift: i - j,
    };
    if (best === null || better(candidate, best)) best = candidate;
    }
  }
  return best;
}

/** Myers over two sequences, as parts (consecutive units of one kind joined). */
function myersParts(a: readonly string[], b: readonly string[]): DiffPart[] {
  const out: DiffPart[] = [];
  let i = 0;
  let j = 0;
  const ops = myers(a, b);
  if (ops === null) return [{ kind: 'del', text: a.join('') }, { kind: 'ins', text: b.join('') }];
  for (const op of ops) {
    if (op === 0) {
      push(out, 'same', a[i++]);
      j++;
    } else if (op < 0) push(out, 'del', a[i++]);
    else push(out, 'ins', b[j++]);
  }
  return out;
}

function push(out: DiffPart[], kind: DiffPart['kind'], text: string): void {
  if (text === '') return;
  const last = out[out.length - 1];
  if (last !== undefined && last.kind === kind) last.text += text;
  else out.push({ kind, text });
}

function splitLines(s: string): string[] {
  return s.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** How far {@link resync} looks ahead for the lines to agree again. */
const LOOK_AHEAD = 40;
/** SKIPS[s]: the lines of `a` to skip, 0 to s (those of `b`: s less that), the most even first. */
const SKIPS: number[][] = Array.from({ length: LOOK_AHEAD + 1 }, (_, s) =>
  Array.from({ length: s + 1 }, (_, d) => d).sort((x, y) => Math.abs(2 * x - s) - Math.abs(2 * y - s) || x - y));

/**
 * An edit script for texts with many changes spread over them (more than Myers is given), made walking
 * both line lists: where they part, the nearest place where they agree again (fewest lines skipped, a
 * replacement before an insertion or deletion of as many lines), else one line replaced. Not always the
 * shortest, but a rewrite's output parts from its input only where a handler changed something.
 */
function resync(a: readonly string[], b: readonly string[]): number[] {
  const ops: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push(0);
      i++;
      j++;
      continue;
    }
    let skip: [number, number] = [1, 1];
    search: for (let s = 1; s <= LOOK_AHEAD; s++) {
      for (const di of SKIPS[s]) {
        const dj = s - di;
        if (i + di < a.length && j + dj < b.length && a[i + di] === b[j + dj]) {
          skip = [di, dj];
          break search;
        }
      }
    }
    for (let k = 0; k < skip[0]; k++) ops.push(-1);
    for (let k = 0; k < skip[1]; k++) ops.push(1);
    i += skip[0];
    j += skip[1];
  }
  while (i++ < a.length) ops.push(-1);
  while (j++ < b.length) ops.push(1);
  return ops;
}

/**
 * Myers' shortest edit script between `a` and `b`: 0 keep, -1 delete from `a`, 1 insert from `b`, in
 * order; null past {@link MAX_EDITS} edits.
 */
function myers(a: readonly string[], b: readonly string[]): number[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return null;
  // Walk back through the saved frontiers.
  const ops: number[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push(0);
      x--;
      y--;
    }
    ops.push(prevK === k + 1 ? 1 : -1);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push(0);
    x--;
    y--;
  }
  return ops.reverse();
}
