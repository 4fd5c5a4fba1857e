/**
 * `sluice rewrite`: the input through `HTMLRewriter`'s byte path — bytes in, bytes out, every byte a
 * handler did not touch copied as it came, in the document's own encoding — with the edits given as
 * flags (applied in the order they were written) and/or `--script` modules that register handlers.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HTMLRewriter, type ByteTransformer, type Element } from '@sluice/rewriter';
import { InputError, UsageError, type Parsed } from '../args.js';
import type { Input } from '../input.js';
import { readChunks, type Context } from './context.js';

/** One edit from the command line, in the order written. */
export type Edit =
  | { kind: 'script'; module: string }
  | { kind: 'remove'; selector: string }
  | { kind: 'set-attr'; selector: string; name: string; value: string }
  | { kind: 'remove-attr'; selector: string; name: string }
  | { kind: 'before' | 'after' | 'prepend' | 'append' | 'replace'; selector: string; html: string };

/** The options that are edits, and how many values each takes. */
export const EDIT_OPTIONS: Record<string, 1 | 2> = {
  script: 1,
  remove: 1,
  'set-attr': 2,
  'remove-attr': 2,
  before: 2,
  after: 2,
  prepend: 2,
  append: 2,
  replace: 2,
};

const SECOND: Record<string, string> = {
  'set-attr': 'NAME=VALUE',
  'remove-attr': 'NAME',
  before: 'HTML',
  after: 'HTML',
  prepend: 'HTML',
  append: 'HTML',
  replace: 'HTML',
};

/**
 * The edits in command-line order, from `parseArgs`' tokens (its values are grouped per option, which
 * loses the order): an edit that takes two values takes the argument after its own as the second.
 * Returns the edits and the positionals left (the file).
 */
export function editsOf(parsed: Parsed): { edits: Edit[]; positionals: string[] } {
  const edits: Edit[] = [];
  const positionals: string[] = [];
  const tokens = parsed.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'positional') {
      positionals.push(t.value);
      continue;
    }
    if (t.kind !== 'option' || !(t.name in EDIT_OPTIONS)) continue;
    const first = t.value!;
    if (t.name === 'script') {
      edits.push({ kind: 'script', module: first });
      continue;
    }
    if (t.name === 'remove') {
      edits.push({ kind: 'remove', selector: first });
      continue;
    }
    const next = tokens[i + 1];
    if (next === undefined || next.kind !== 'positional') {
      throw new UsageError(`--${t.name} needs two values: SELECTOR ${SECOND[t.name]}`, 'rewrite');
    }
    i++;
    const second = next.value;
    switch (t.name) {
      case 'set-attr': {
        const eq = second.indexOf('=');
        if (eq <= 0) throw new UsageError(`--set-attr ${JSON.stringify(first)}: ${JSON.stringify(second)} is not NAME=VALUE`, 'rewrite');
        edits.push({ kind: 'set-attr', selector: first, name: second.slice(0, eq), value: second.slice(eq + 1) });
        break;
      }
      case 'remove-attr':
        edits.push({ kind: 'remove-attr', selector: first, name: second });
        break;
      default:
        edits.push({ kind: t.name as 'before', selector: first, html: second });
    }
  }
  return { edits, positionals };
}

/** What one edit does to a matched element. */
function handlerOf(edit: Exclude<Edit, { kind: 'script' }>): (el: Element) => void {
  switch (edit.kind) {
    case 'remove':
      return (el) => el.remove();
    case 'set-attr':
      return (el) => void el.setAttribute(edit.name, edit.value);
    case 'remove-attr':
      return (el) => void el.removeAttribute(edit.name);
    case 'before':
      return (el) => void el.before(edit.html, { html: true });
    case 'after':
      return (el) => void el.after(edit.html, { html: true });
    case 'prepend':
      return (el) => void el.prepend(edit.html, { html: true });
    case 'append':
      return (el) => void el.append(edit.html, { html: true });
    case 'replace':
      return (el) => void el.replace(edit.html, { html: true });
  }
}

/** Registers the edits on a new rewriter, in order; a `--script` module's default export is awaited. */
export async function buildRewriter(edits: readonly Edit[]): Promise<HTMLRewriter> {
  const rewriter = new HTMLRewriter();
  for (const edit of edits) {
    if (edit.kind === 'script') {
      let mod: { default?: unknown };
      try {
        mod = (await import(pathToFileURL(resolve(edit.module)).href)) as { default?: unknown };
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        if (e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(resolve(edit.module))) throw new InputError(`--script ${edit.module}: no such file`);
        throw new InputError(`--script ${edit.module}: ${e.message}`);
      }
      if (typeof mod.default !== 'function') {
        throw new InputError(`--script ${edit.module}: the module's default export must be a function that receives an HTMLRewriter (it is ${mod.default === undefined ? 'missing' : typeof mod.default})`);
      }
      await (mod.default as (r: HTMLRewriter) => unknown)(rewriter);
      continue;
    }
    try {
      rewriter.on(edit.selector, { element: handlerOf(edit) });
    } catch (error) {
      throw new UsageError(`--${edit.kind}: ${(error as Error).message}`, 'rewrite');
    }
  }
  return rewriter;
}

export interface RewriteOptions {
  chunkSize: number;
  encoding: string | undefined;
}

export async function rewriteCommand(ctx: Context, input: Input, rewriter: HTMLRewriter, o: RewriteOptions): Promise<number> {
  const out = ctx.out;
  let pieces: Uint8Array[] = [];
  let transformer: ByteTransformer | null = null;
  const release = async (): Promise<void> => {
    if (pieces.length === 0) return;
    const data = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    pieces = [];
    await out.bytes(data);
  };
  await readChunks(
    ctx,
    input,
    o.chunkSize,
    (defaultEncoding) => {
      transformer = rewriter.createByteTransformer((chunk) => pieces.push(chunk), { encoding: o.encoding, defaultEncoding });
    },
    async (chunk) => {
      const p = transformer!.write(chunk);
      if (p !== undefined) await p;
      await release();
    },
  );
  const p = transformer!.end();
  if (p !== undefined) await p;
  await release();
  return 0;
}
