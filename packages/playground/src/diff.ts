/**
 * A character diff of the rewrite's output against its input, to show that only what a handler changed
 * differs. Lines first (Myers' O(ND) algorithm over lines), then, inside each changed run of lines, the
 * characters (the same algorithm over characters when the run is small, else common prefix and suffix).
 */

/** A piece of the diff: text in both, only in the input (`del`), or only in the output (`ins`). */
export interface DiffPart {
  kind: 'same' | 'del' | 'ins';
  text: string;
}

/** Above this many edits a Myers run gives up and the run is reported as replaced whole. */
const MAX_EDITS = 2000;

/** The diff of `a` (input) and `b` (output), as parts in order; `same` parts joined give the common text. */
export function diffText(a: string, b: string): DiffPart[] {
  if (a === b) return a === '' ? [] : [{ kind: 'same', text: a }];
  const la = splitLines(a);
  const lb = splitLines(b);
  const ops = myers(la, lb);
  const out: DiffPart[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  while (k < ops.length) {
    if (ops[k] === 0) {
      push(out, 'same', la[i++]);
      j++;
      k++;
      continue;
    }
    // A run of deletions and insertions: diff its characters.
    let del = '';
    let ins = '';
    while (k < ops.length && ops[k] !== 0) {
      if (ops[k] < 0) del += la[i++];
      else ins += lb[j++];
      k++;
    }
    for (const p of diffChars(del, ins)) push(out, p.kind, p.text);
  }
  return out;
}

function diffChars(a: string, b: string): DiffPart[] {
  let p = 0;
  while (p < a.length && p < b.length && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  const out: DiffPart[] = [];
  push(out, 'same', a.slice(0, p));
  const ma = a.slice(p, a.length - s);
  const mb = b.slice(p, b.length - s);
  if (ma.length * mb.length <= 4_000_000) {
    const ca = [...ma];
    const cb = [...mb];
    const ops = myers(ca, cb);
    let i = 0;
    let j = 0;
    for (const op of ops) {
      if (op === 0) {
        push(out, 'same', ca[i++]);
        j++;
      } else if (op < 0) push(out, 'del', ca[i++]);
      else push(out, 'ins', cb[j++]);
    }
  } else {
    push(out, 'del', ma);
    push(out, 'ins', mb);
  }
  push(out, 'same', a.slice(a.length - s));
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

/**
 * Myers' shortest edit script between `a` and `b`: 0 keep, -1 delete from `a`, 1 insert from `b`, in
 * order. Falls back to delete-all-then-insert-all past {@link MAX_EDITS} edits.
 */
function myers(a: readonly string[], b: readonly string[]): number[] {
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
  if (found < 0) return [...new Array<number>(n).fill(-1), ...new Array<number>(m).fill(1)];
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
