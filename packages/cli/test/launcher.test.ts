/**
 * bin.ts starts `select` again with V8's young generation bounded (`--max-semi-space-size=2`): the
 * bounded process is a child of the one the user started, shares its stdin/stdout/stderr, and its exit code
 * or signal is the launcher's. Linux's /proc shows the child's command line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bin, sluice } from './helpers.js';

const linux = existsSync('/proc/self/task');

function children(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const kids = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (kids !== '') out.push(...kids.split(/\s+/).map(Number));
  }
  return out;
}

function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((s) => s !== '');
}

/**
 * The launcher's child's command line, once it is the bounded command's (polls up to 10 s): between fork
 * and exec a child's /proc cmdline is still the launcher's, and during the exec it can read empty (CI
 * read it in both windows), so a child is read again until its command line has the flag. Null when it
 * never does.
 */
async function childCommandLine(p: ChildProcess): Promise<string[] | null> {
  for (let i = 0; i < 200; i++) {
    const kids = children(p.pid!);
    if (kids.length > 0) {
      let argv: string[] | null = null;
      try {
        argv = commandLine(kids[0]!);
      } catch {
        argv = null; // the child is gone already
      }
      if (argv !== null && argv.includes('--max-semi-space-size=2')) return argv;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

function exited(p: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => p.on('exit', (code, signal) => resolve({ code, signal })));
}

describe.runIf(linux)('the launcher (bin.ts)', () => {
  it('runs the command in a child with --max-semi-space-size=2, on the same streams', async () => {
    const p = spawn(process.execPath, [bin, 'select', 'p'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    p.stdout!.on('data', (b: Buffer) => (out += b));
    p.stdin!.write('<p>a');
    const argv = await childCommandLine(p);
    p.stdin!.end('b</p>');
    const { code } = await exited(p);
    expect(argv).not.toBeNull();
    expect(argv).toContain('--max-semi-space-size=2');
    expect(argv).toContain(bin);
    expect(code).toBe(0);
    expect(out).toBe('<p>ab</p>\n');
  });

  it('no child when the caller chose a semi-space size or sets SLUICE_NO_REEXEC=1', async () => {
    for (const env of [{ SLUICE_NO_REEXEC: '1' }, { NODE_OPTIONS: '--max-semi-space-size=8' }]) {
      const p = spawn(process.execPath, [bin, 'select', 'p'], { stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, ...env } });
      await new Promise((r) => setTimeout(r, 1500));
      expect(children(p.pid!)).toEqual([]);
      p.stdin!.end('<p>');
      expect((await exited(p)).code).toBe(0);
    }
  });

  it("the child's exit code is the launcher's (usage 2, file problem 1); other commands run in one process", async () => {
    expect(sluice(['select', '--bogus', 'p']).code).toBe(2);
    expect(sluice(['select', 'p', '/nonexistent/file.html']).code).toBe(1);
    const p = spawn(process.execPath, [bin, 'tokenize'], { stdio: ['pipe', 'ignore', 'ignore'] });
    await new Promise((r) => setTimeout(r, 1500));
    expect(children(p.pid!)).toEqual([]);
    p.stdin!.end('<p>');
    expect((await exited(p)).code).toBe(0);
  });

  it('SIGTERM to the launcher ends the child too, and the launcher dies of it', async () => {
    const p = spawn(process.execPath, [bin, 'select', 'p'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const argv = await childCommandLine(p);
    expect(argv).not.toBeNull();
    const child = children(p.pid!)[0]!;
    p.kill('SIGTERM');
    const { signal } = await exited(p);
    expect(signal).toBe('SIGTERM');
    expect(existsSync(`/proc/${child}/status`) && !/State:\s+Z/.test(readFileSync(`/proc/${child}/status`, 'utf8'))).toBe(false);
  });
});
