#!/usr/bin/env node
// The `sluice` command's memory on a big input: a generated ~1 GB document (made on the fly, never a
// file, never held whole) piped into each streaming subcommand's standard input, its output read and
// dropped; prints the peak resident memory of the command and its child (VmHWM from /proc/<pid>/status, sampled every 50 ms
// — the kernel's own high-water mark, so a sample misses nothing that happened before it; /usr/bin/time
// is not needed) and its throughput. Exits 1 when a streaming command reaches 150 MB or fails.
//
// Run after building (`node scripts/setup.mjs`): node bench/cli-memory.mjs [--mb 1024] [--only tokenize,events]
// `--parse-mb N` also runs `parse --format html` on an N MB document (it builds the whole DOM, as any DOM
// does: reported, not held to the limit).
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bigDocument } from './lib/big-document.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const MB = Number(opt('--mb', 1024));
const PARSE_MB = Number(opt('--parse-mb', 0));
const ONLY = opt('--only', null)?.split(',') ?? null;
const LIMIT = 150 * 1024 * 1024;
const CHUNK = 64 * 1024;
const bin = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));

/** Writes `total` bytes of the document to `stream`, waiting for 'drain' (the child reads at its pace). */
async function feed(stream, total) {
  const write = (b) => (stream.write(b) ? null : new Promise((r) => stream.once('drain', r)));
  let produced = 0;
  const send = async (b) => {
    produced += b.length;
    const w = write(b);
    if (w !== null) await w;
  };
  try {
    for (const piece of bigDocument(total, '<!DOCTYPE html><html><head><meta charset=utf-8><title>big</title></head><body>\n', CHUNK)) await send(piece);
    stream.end();
  } catch {
    // The child stopped reading (it failed): its status says why.
  }
  return produced;
}

function vmHWM(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/** `pid` and its descendants (the command starts itself again with a bounded young generation: bin.ts). */
function processTree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${out[i]}/task`)) {
        const kids = readFileSync(`/proc/${out[i]}/task/${task}/children`, 'utf8').trim();
        if (kids !== '') for (const k of kids.split(/\s+/)) out.push(Number(k));
      }
    } catch {
      // The process ended between two reads.
    }
  }
  return out;
}

/** Each process's own high-water mark, remembered per pid; the peak is their sum (what the command costs). */
function sampleTree(pid, peaks) {
  for (const p of processTree(pid)) peaks.set(p, Math.max(peaks.get(p) ?? 0, vmHWM(p)));
}

async function measure(label, argv, totalBytes) {
  const child = spawn(process.execPath, [bin, ...argv], { stdio: ['pipe', 'pipe', 'pipe'] });
  let outBytes = 0;
  let stderr = '';
  child.stdout.on('data', (b) => (outBytes += b.length));
  child.stderr.on('data', (b) => (stderr += b));
  child.stdin.on('error', () => {});
  const peaks = new Map();
  const timer = setInterval(() => sampleTree(child.pid, peaks), 50);
  const started = performance.now();
  const fed = feed(child.stdin, totalBytes);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(timer);
  // Summed over the processes (each one's own high-water mark, so an upper bound of the moment's total).
  const peak = [...peaks.values()].reduce((a, b) => a + b, 0);
  const seconds = (performance.now() - started) / 1000;
  const inBytes = await fed;
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `${label.padEnd(44)} in ${mb(inBytes)} MB, out ${mb(outBytes)} MB, ${seconds.toFixed(1)} s (${(inBytes / 1024 / 1024 / seconds).toFixed(1)} MB/s), peak RSS ${mb(peak)} MB (${[...peaks.values()].map(mb).join(' + ')}), exit ${code}`,
  );
  if (stderr !== '') console.log(`  stderr: ${stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
  return { peak, code };
}

const COMMANDS = [
  ['tokenize', ['tokenize']],
  ['events', ['events']],
  ['rewrite', ['rewrite', '--set-attr', 'a[href^="http:"]', 'rel=noopener', '--remove', 'script']],
  ['select --attr (rewriter only)', ['select', '--attr', 'href', 'article a']],
  ['select outer HTML (rewriter + pruned DOM)', ['select', 'td']],
  ['check', ['check']],
];

let failed = false;
console.log(`sluice command, ${MB} MB generated on stdin, 64 KiB pieces; node ${process.version}`);
for (const [label, argv] of COMMANDS) {
  if (ONLY !== null && !ONLY.some((o) => label.startsWith(o))) continue;
  const { peak, code } = await measure(`${label}`, argv, MB * 1024 * 1024);
  // check exits 1 when it found parse errors (the generated page has some): that is its answer, not a failure.
  if (code !== 0 && !(label === 'check' && code === 1)) failed = true;
  if (peak >= LIMIT) failed = true;
}
if (PARSE_MB > 0) {
  await measure(`parse --format html (${PARSE_MB} MB, whole DOM)`, ['parse', '--format', 'html'], PARSE_MB * 1024 * 1024);
}
if (failed) {
  console.log(`FAILED: a command exited with an error or reached ${LIMIT / 1024 / 1024} MB`);
  process.exitCode = 1;
}
