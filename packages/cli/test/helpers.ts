/** Running the command: the built one as a real process, or `run()` in this process for loops over the corpus. */
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { run } from '../src/main.js';

/** The built command (`node node_modules/typescript/bin/tsc -b` or `node scripts/setup.mjs` builds it). */
export const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
export const example = fileURLToPath(new URL('../../../examples/page.html', import.meta.url));
export const corpusDir = fileURLToPath(new URL('../../../bench/node_modules/htmlparser-benchmark/files', import.meta.url));

export interface Result {
  code: number | null;
  out: string;
  err: string;
  bytes: Buffer;
}

/** Spawns `node dist/bin.js …args` with `input` on stdin. */
export function sluice(args: string[], input?: Buffer | string): Result {
  const r = spawnSync(process.execPath, [bin, ...args], { input: input ?? '', maxBuffer: 1 << 30 });
  return { code: r.status, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8'), bytes: r.stdout };
}

/** Runs the command in this process, on in-memory streams. */
export async function inProcess(args: string[], input?: Buffer | string): Promise<Result> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const outs: Buffer[] = [];
  const errs: Buffer[] = [];
  stdout.on('data', (b: Buffer) => outs.push(b));
  stderr.on('data', (b: Buffer) => errs.push(b));
  stdin.end(input ?? '');
  const code = await run(args, { stdin, stdout, stderr });
  const bytes = Buffer.concat(outs);
  return { code, out: bytes.toString('utf8'), err: Buffer.concat(errs).toString('utf8'), bytes };
}
