import { readFileSync } from 'node:fs';
import { UsageError } from './args.js';

/** Reads the input file (or standard input for `-`) as UTF-8 text. */
export function readInput(path: string | undefined): string {
  if (path === undefined) throw new UsageError('no input file given (use - for standard input)');
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Splits `text` into chunks of `size` UTF-16 code units, as a network would deliver it. */
export function* chunks(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
