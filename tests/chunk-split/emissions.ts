/**
 * Recording what a tokenizer emits, in a form that does not depend on how text was split: tokens as
 * plain records with every decoded field read, adjacent text tokens of one kind merged; errors apart.
 */

import type { ParseError, Token } from '@sluice/tokenizer';

export interface TokenRecord {
  type: Token['type'];
  raw: string;
  start: number;
  /** The decoded fields, by name. */
  fields: Record<string, unknown>;
}

/** A token as a plain record, every lazy field read. */
export function recordToken(t: Token): TokenRecord {
  switch (t.type) {
    case 'text':
      return { type: t.type, raw: t.raw, start: t.start, fields: { kind: t.kind, value: t.value } };
    case 'startTag':
    case 'endTag':
      return {
        type: t.type,
        raw: t.raw,
        start: t.start,
        fields: {
          name: t.name,
          attributes: t.attributes.map((a) => [a.name, a.value]),
          selfClosing: t.selfClosing,
        },
      };
    case 'comment':
      return { type: t.type, raw: t.raw, start: t.start, fields: { data: t.data } };
    case 'doctype':
      return {
        type: t.type,
        raw: t.raw,
        start: t.start,
        fields: { name: t.name, publicId: t.publicId, systemId: t.systemId, forceQuirks: t.forceQuirks },
      };
    case 'discarded':
      return { type: t.type, raw: t.raw, start: t.start, fields: {} };
  }
}

/** Merges adjacent, contiguous text records of one kind (their raw texts and values concatenated). */
export function mergeText(records: readonly TokenRecord[]): TokenRecord[] {
  const out: TokenRecord[] = [];
  for (const r of records) {
    const last = out[out.length - 1];
    if (
      last !== undefined &&
      r.type === 'text' &&
      last.type === 'text' &&
      last.fields.kind === r.fields.kind &&
      last.start + last.raw.length === r.start
    ) {
      out[out.length - 1] = {
        type: 'text',
        raw: last.raw + r.raw,
        start: last.start,
        fields: { kind: r.fields.kind, value: (last.fields.value as string) + (r.fields.value as string) },
      };
    } else {
      out.push(r);
    }
  }
  return out;
}

/** What a tokenizer emitted over some stretch: tokens and errors, each in order. */
export interface Emissions {
  tokens: TokenRecord[];
  errors: ParseError[];
}

export function emptyEmissions(): Emissions {
  return { tokens: [], errors: [] };
}

export function concatEmissions(parts: readonly Emissions[]): Emissions {
  const out = emptyEmissions();
  for (const p of parts) {
    out.tokens.push(...p.tokens);
    out.errors.push(...p.errors);
  }
  return out;
}

/** Emissions with text merged, as a string that compares and prints well. */
export function normalizeEmissions(e: Emissions): string {
  return JSON.stringify({ tokens: mergeText(e.tokens), errors: e.errors });
}

/** Appends `records` to `merged` (already merged), merging text as {@link mergeText} does. */
export function appendMerged(merged: TokenRecord[], records: readonly TokenRecord[]): void {
  for (const r of records) {
    const last = merged[merged.length - 1];
    if (
      last !== undefined &&
      r.type === 'text' &&
      last.type === 'text' &&
      last.fields.kind === r.fields.kind &&
      last.start + last.raw.length === r.start
    ) {
      merged[merged.length - 1] = {
        type: 'text',
        raw: last.raw + r.raw,
        start: last.start,
        fields: { kind: r.fields.kind, value: (last.fields.value as string) + (r.fields.value as string) },
      };
    } else {
      merged.push(r);
    }
  }
}

function sameRecord(a: TokenRecord, b: TokenRecord): boolean {
  return a.type === b.type && a.start === b.start && a.raw === b.raw && JSON.stringify(a.fields) === JSON.stringify(b.fields);
}

/** Whether two merged record lists are equal. */
export function sameRecords(a: readonly TokenRecord[], b: readonly TokenRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (!sameRecord(a[k]!, b[k]!)) return false;
  return true;
}

/** Whether two error lists are equal. */
export function sameErrors(a: readonly ParseError[], b: readonly ParseError[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (x.code !== y.code || x.offset !== y.offset || x.line !== y.line || x.col !== y.col) return false;
  }
  return true;
}
