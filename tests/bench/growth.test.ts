/**
 * bench/lib/growth.mjs, the n-vs-4n measurement of the growth benches (issue 19 item 2), with a fake
 * child process: a row whose ratio reads over the goal gets more rounds, up to 8, and a cost that grows
 * faster than n stays over the goal however many it gets.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module, without types
import { GOAL, growth } from '../../bench/lib/growth.mjs';

type Measure = (script: string, childArgs: unknown[], k: number, warmK: number) => number;

/** A fake child process: `time(k, call)` gives the ms of the call-th process run at size k. */
function fake(time: (k: number, call: number) => number): { measure: Measure; calls: Map<number, number> } {
  const calls = new Map<number, number>();
  const measure: Measure = (_script, _args, k) => {
    const call = calls.get(k) ?? 0;
    calls.set(k, call + 1);
    return time(k, call);
  };
  return { measure, calls };
}

const base = { script: 'x', childArgs: [], n: 1000, minMs: 50, maxScale: 16 };

describe('growth (bench/lib/growth.mjs)', () => {
  it('takes exactly the rounds asked for when the ratio reads under the goal', () => {
    const { measure, calls } = fake((k) => (k === 1000 ? 60 : 230));
    const r = growth({ ...base, rounds: 3, measure });
    expect(r).toMatchObject({ n: 1000, a: 60, b: 230, rounds: 3 });
    expect(r.ratio).toBeCloseTo(230 / 60);
    expect(calls.get(1000)).toBe(3); // the pick, then rounds 2 and 3
    expect(calls.get(4000)).toBe(3);
  });

  it('gives a row more rounds while slow processes at 4n keep its ratio over the goal, and keeps the best', () => {
    // The first four processes at 4n are twice as slow (every run in them), as on the shared machine.
    const { measure, calls } = fake((k, call) => (k === 1000 ? 60 : call < 4 ? 460 : 230));
    const r = growth({ ...base, rounds: 3, measure });
    expect(r.rounds).toBe(5);
    expect(r.b).toBe(230);
    expect(r.ratio).toBeLessThanOrEqual(GOAL);
    expect(calls.get(4000)).toBe(5);
  });

  it('stops at 8 rounds, and a cost that grows faster than n stays over the goal', () => {
    const { measure, calls } = fake((k) => (k === 1000 ? 60 : 60 * 16));
    const r = growth({ ...base, rounds: 3, measure });
    expect(r.rounds).toBe(8);
    expect(r.ratio).toBeCloseTo(16);
    expect(r.ratio).toBeGreaterThan(GOAL);
    expect(calls.get(4000)).toBe(8);
  });

  it('is one-sided: a ratio that a slow process at n made read low gets no more rounds', () => {
    const { measure } = fake((k, call) => (k === 1000 ? (call < 3 ? 120 : 60) : 230));
    const r = growth({ ...base, rounds: 3, measure });
    expect(r.rounds).toBe(3);
    expect(r.ratio).toBeCloseTo(230 / 120);
  });

  it('doubles n until a run takes minMs', () => {
    const { measure } = fake((k) => (k < 4000 ? k / 100 : k === 4000 ? 55 : 4 * 55));
    const r = growth({ ...base, rounds: 2, measure });
    expect(r.n).toBe(4000);
    expect(r.ratio).toBeCloseTo(4);
  });
});
