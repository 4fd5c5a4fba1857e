#!/usr/bin/env node
/**
 * The `sluice` executable: runs the command on this process's arguments and streams.
 *
 * For `select`, it first starts itself again with V8's young generation bounded (`--max-semi-space-size=2`, in MB),
 * stdin, stdout and stderr shared (inherited, not piped): on a machine with a big heap V8 grows each
 * semi-space to 32 MB, and a streaming command that allocates fast but keeps little (`select` printing
 * outer HTML keeps ~9 MB live) then peaks near 190 MB of resident memory on a 1 GB input; bounded, the
 * bounded process peaks at ~100 MB and the launcher (which loads none of the library) at ~43 MB
 * (bench/cli-memory.mjs sums the two; docs/cli.md "Streaming and memory"). The flag only takes effect when the
 * heap is set up, hence the second process. It is skipped when the caller already chose a semi-space size
 * (in `node`'s flags or NODE_OPTIONS) or sets SLUICE_NO_REEXEC=1. The child's exit code (or signal) is
 * this process's.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const FLAG = '--max-semi-space-size';
const SEMI_SPACE_MB = 2;
const chosen =
  process.env.SLUICE_NO_REEXEC === '1' ||
  process.execArgv.some((a) => a.startsWith(FLAG)) ||
  (process.env.NODE_OPTIONS ?? '').includes(FLAG);

// Only `select` is started again: its outer-HTML path allocates fast and keeps little, so its peak is the
// young generation's size; the other commands' peaks are not (bounded, `tokenize` and `events` peaked
// at ~125 MB in the child alone, and the launcher's own ~43 MB would put them over the 150 MB goal).
const youngGenerationBound = process.argv[2] === 'select';

if (chosen || !youngGenerationBound || process.argv[1] === undefined) runHere();
else runBounded(process.argv[1]);

function runHere(): void {
  // Imported here, not at the top: the launcher process loads nothing of the library (its memory counts too).
  import('./main.js')
    .then(({ run }) => run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(`sluice: ${(error as Error)?.message ?? String(error)}\n`);
        process.exitCode = 1;
      },
    );
}

function runBounded(script: string): void {
  // A terminal's Ctrl-C reaches both processes (one process group); a signal sent to this one alone is passed on.
  // The handlers come before the spawn: a signal that arrives while `spawn` waits for the child's exec
  // then runs its handler from the event loop, once `child` is set. Registered after the spawn, they
  // left a window in which the signal took its default action, ending this process and leaving the
  // child running.
  let child: ChildProcess | null = null;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child?.kill(signal));
  child = spawn(process.execPath, [...process.execArgv, `${FLAG}=${SEMI_SPACE_MB}`, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SLUICE_NO_REEXEC: '1' },
  });
  child.on('error', (error) => {
    process.stderr.write(`sluice: could not start: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    if (signal !== null) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 1;
  });
}
