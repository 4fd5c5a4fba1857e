// This machine's limit for a pass over the benchmark's inputs (issue 19 item 1): how fast a bare loop can
// look at every character, and how fast `indexOf('<')` can jump from one `<` to the next. A tokenizer must
// at least find every `<` and, for the text it decodes, look at its characters: sluice's MB/s as a
// fraction of these says how far from the physical limit it runs, on this machine, under this load.

let sink = 0; // keeps the passes observable

/** The code units of one string, summed (a function per string: V8 optimizes it as a whole). */
function sumCodeUnits(s) {
  let sum = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) sum = (sum + s.charCodeAt(i)) | 0;
  return sum;
}

/** Every UTF-16 code unit read once with `charCodeAt` (summed, so the loop cannot be dropped). */
function charCodeAtPass(strings) {
  let sum = 0;
  for (const s of strings) sum = (sum + sumCodeUnits(s)) | 0;
  sink += sum;
}

/** Every `<` found with `indexOf`, from one to the next. */
function indexOfPass(strings) {
  let count = 0;
  for (const s of strings) {
    for (let i = s.indexOf('<'); i >= 0; i = s.indexOf('<', i + 1)) count++;
  }
  sink += count;
}

/** The bytes of one array, summed. */
function sumBytes(a) {
  let sum = 0;
  const n = a.length;
  for (let i = 0; i < n; i++) sum = (sum + a[i]) | 0;
  return sum;
}

/** Every byte read once (the byte interfaces' counterpart of `charCodeAtPass`). */
function bytePass(arrays) {
  let sum = 0;
  for (const a of arrays) sum = (sum + sumBytes(a)) | 0;
  sink += sum;
}

/** Every `<` (0x3C) found with `Uint8Array.prototype.indexOf`. */
function byteIndexOfPass(arrays) {
  let count = 0;
  for (const a of arrays) {
    for (let i = a.indexOf(0x3c); i >= 0; i = a.indexOf(0x3c, i + 1)) count++;
  }
  sink += count;
}

function best(run, inputs, rounds) {
  run(inputs); // warm-up
  let ms = Infinity;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    run(inputs);
    ms = Math.min(ms, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return ms;
}

/**
 * The two passes over `inputs` (strings, or Uint8Arrays for the byte interfaces), best of `rounds`:
 * `{ charCodeAt, indexOf }` in MB/s (millions of code units, or bytes, per second).
 */
export function machineLimit(inputs, rounds = 5) {
  const bytes = inputs[0] instanceof Uint8Array;
  const units = inputs.reduce((n, s) => n + s.length, 0);
  const mbps = (ms) => units / 1e6 / (ms / 1e3);
  const charCodeAt = mbps(best(bytes ? bytePass : charCodeAtPass, inputs, rounds));
  const indexOf = mbps(best(bytes ? byteIndexOfPass : indexOfPass, inputs, rounds));
  if (sink === 0) throw new Error('the limit passes saw nothing');
  return { charCodeAt, indexOf };
}

/** The lines that print the limit and what share of it each of `rows` ([label, MB/s]) reaches. */
export function formatLimit(limit, rows, unit = 'code unit') {
  const lines = [
    `this machine's limit: a bare ${unit === 'byte' ? 'byte-by-byte' : 'charCodeAt'} pass ${limit.charCodeAt.toFixed(0)} MB/s, ` +
      `an indexOf('<') scan ${limit.indexOf.toFixed(0)} MB/s`,
  ];
  for (const [label, mbps] of rows) {
    lines.push(
      `  ${label.padEnd(40)} ${mbps.toFixed(1).padStart(7)} MB/s = ${(100 * mbps / limit.charCodeAt).toFixed(0).padStart(3)}% of the ${unit === 'byte' ? 'byte' : 'charCodeAt'} pass, ` +
        `${(100 * mbps / limit.indexOf).toFixed(1).padStart(4)}% of the indexOf scan`,
    );
  }
  return lines.join('\n');
}

/**
 * `label: 2.61× htmlparser2 (goal ≥ 3.5×) MISSED (25% short)` — a ratio beside its goal; `atMost` for a
 * goal that is an upper bound (a heap share).
 */
export function goalRow(label, ratio, peer, goal, { atMost = false } = {}) {
  const met = atMost ? ratio <= goal : ratio >= goal;
  const by = atMost ? `${(ratio / goal).toFixed(2)}× the bound` : `${(100 * (1 - ratio / goal)).toFixed(0)}% short`;
  return `${label}: ${ratio.toFixed(2)}× ${peer} (goal ${atMost ? '≤' : '≥'} ${goal}×) ${met ? 'met' : `MISSED (${by})`}`;
}
