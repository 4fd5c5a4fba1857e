// Cost as the input grows (issue 19 item 2): the CPU time of one run at n and at 4n, each in a process of
// its own, and their ratio (≤ 4.4 reads as linear, with slack).
//
// Why a process per size. Run in one process, one after another, the runs disturbed each other: a run
// paid for collecting the garbage the run before it left (a 4n run's document is four times an n run's),
// and where V8 grew its young generation or old space fell at a different point in each. The 4n / n
// ratio of one pair then moved by ±30% between identical runs and read ×5–13 on shapes whose cost per
// unit is flat from 2,500 to 640,000 repetitions (docs/parsing.md, "A forced GC makes the next run
// cold"). A forced GC between runs is no cure: it throws away the optimized code (same section). A fresh
// process, warmed up on the same shape, measures what a process that parses big documents of one size
// pays, garbage collection included, and nothing left by a run of another size.
//
// Why n grows until a run takes `minMs`. A run of a few milliseconds is mostly timer grain, tiering
// (code optimized while it runs) and one scavenge more or less; the n chosen per row is the first of n,
// 2n, 4n, … (up to `maxScale` × n) whose run takes at least `minMs` of CPU, and the table prints it.
import { spawnSync } from 'node:child_process';

export const GOAL = 4.4;

/** CPU milliseconds (user + system, every thread of this process: the compiler's and GC's count too). */
function cpuMs(run, input) {
  const start = process.cpuUsage();
  run(input);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e3;
}

/**
 * The child's side: warms `run` up (three runs on `build(warmK)`, one on `build(k)`), then times `timed`
 * more runs on `build(k)` and writes the best, `{"ms": …}`, to stdout. The input is built before any
 * clock starts. Warming up at k itself matters: after runs on a smaller input only, V8 was still
 * optimizing during the timed run (`parse()` of 10,000 `<template>`s took 60 ms so, 8 ms warm).
 */
export function childMeasure(run, build, k, warmK, timed = 2) {
  const warm = build(warmK);
  for (let i = 0; i < 3; i++) run(warm);
  const input = build(k);
  run(input);
  let best = Infinity;
  for (let i = 0; i < timed; i++) best = Math.min(best, cpuMs(run, input));
  process.stdout.write(JSON.stringify({ ms: best }) + '\n');
}

/** Runs `node script ...childArgs k warmK` and returns the milliseconds it reports; throws with its stderr. */
function measureInChild(script, childArgs, k, warmK) {
  const r = spawnSync(process.execPath, [script, '--child', ...childArgs.map(String), String(k), String(warmK)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`child ${childArgs.join(' ')} at k = ${k} failed (${r.status ?? r.signal}):\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()).ms;
}

/**
 * The parent's side: picks n (see above), then alternates processes at n and 4n for `rounds` rounds and
 * keeps the best of each (another process on a shared machine only ever adds time).
 *
 * Why more rounds when the ratio reads over the goal. A whole process is sometimes slow — every run in
 * it, by up to 2× (measured on an idle machine, 2026-11-29: the rewriter on 10,000 `&amp` units fed one
 * character at a time took 50–54 ms a run in most processes and 78–102 ms in one; at 40,000, 186–203 ms,
 * with a first timed run of up to 420). When every process at 4n of a row is slow and one at n is not,
 * the ratio reads ×6.6–6.8 where the shape costs ×3.7. So a row whose ratio is over `GOAL` after
 * `rounds` gets more rounds, up to `maxRounds`: more samples of both sizes, the best of each kept, as
 * before. They lower a ratio only where a slow process raised it; a cost that grows faster than n
 * stays over the goal whatever the number of rounds. (One-sided, as the goal is: a ratio that a slow
 * process at n lowered gets no more rounds, as it got none before.)
 * Returns { n, a, b, ratio, rounds } with a and b in ms. `measure(script, childArgs, k, warmK)` is
 * the child process by default (tests/bench/growth.test.ts gives it a fake).
 */
export function growth({ script, childArgs, n, rounds, minMs, maxScale, maxRounds = Math.max(rounds, 8), measure = measureInChild }) {
  let k = n;
  let a = measure(script, childArgs, k, Math.max(1, k >> 2));
  while (a < minMs && k < n * maxScale) {
    k *= 2;
    a = measure(script, childArgs, k, Math.max(1, k >> 2));
  }
  const warmK = Math.max(1, k >> 2);
  let b = Infinity;
  let r = 0;
  for (; r < rounds || (b / a > GOAL && r < maxRounds); r++) {
    if (r > 0) a = Math.min(a, measure(script, childArgs, k, warmK));
    b = Math.min(b, measure(script, childArgs, 4 * k, warmK));
  }
  return { n: k, a, b, ratio: b / a, rounds: r };
}

/** Parses `--name value` flags shared by the growth benches. */
export function growthOptions(args, defaults) {
  const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  return {
    n: Number(arg('--n', defaults.n)),
    rounds: Number(arg('--rounds', defaults.rounds ?? 2)),
    minMs: Number(arg('--min-ms', defaults.minMs ?? 50)),
    maxScale: Number(arg('--max-scale', defaults.maxScale ?? 16)),
    only: arg('--only', null),
    limit: Number(arg('--limit', 6)),
    check: args.includes('--check'),
  };
}
