// Timing helpers for the benchmarks: interleaved rounds, best round, MB/s rows.

/**
 * Runs each contender `rounds` times, interleaved (A B C A B C …) so that machine noise hits all alike;
 * returns the best (smallest) time of each, in milliseconds, by name.
 */
export function timeBest(contenders, rounds) {
  const best = Object.fromEntries(contenders.map(([name]) => [name, Infinity]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of contenders) {
      const start = process.hrtime.bigint();
      run();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (ms < best[name]) best[name] = ms;
    }
  }
  return best;
}

/** Millions of UTF-16 code units per second. */
export function mbPerSecond(chars, ms) {
  return chars / 1e6 / (ms / 1e3);
}

export function formatRow(name, mbs, ms) {
  return `${name.padEnd(44)} ${mbs.toFixed(1).padStart(7)} MB/s   (${ms.toFixed(0)} ms per round)`;
}
