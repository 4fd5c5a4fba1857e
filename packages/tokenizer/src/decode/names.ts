/**
 * Tag and attribute names, decoded from raw text through a small cache of the names seen before.
 *
 * A page names the same few dozen tags and attributes over and over. Slicing a fresh string for each
 * occurrence costs an allocation, and the DOM then keeps every one of those copies alive (an element's
 * local name, each attribute's name). Looking the name up by its characters first returns one shared
 * string per distinct name instead. The cache is only an optimization: a miss, a collision or a name
 * it does not take gives the same string contents, decoded the usual way.
 */

import { lowercaseName } from './normalize.js';

/** Slots in the cache (a power of two). Names are few; collisions simply replace the older entry. */
const SLOTS = 1024;
/**
 * Names longer than this are sliced every time. Long names are rare; and V8 makes a slice of 13 or more
 * characters a view into its parent string, which a cached name would keep alive (a whole page).
 */
const MAX_CACHED_LENGTH = 12;

const cache: string[] = new Array<string>(SLOTS).fill('');

/** A scratch object whose keys V8 stores internalized (see `internalized`). */
const keys: Record<string, number> = Object.create(null) as Record<string, number>;

/**
 * `s`, as V8's one shared copy of those characters (the one string literals use). Comparing two such
 * strings with `===` is a pointer comparison, whether they are equal or not, so the rules' and the
 * selectors' comparisons of names with literals (and `tagIdOf`'s) cost no character compares.
 */
function internalized(s: string): string {
  keys[s] = 0;
  for (const k in keys) {
    delete keys[k];
    return k;
  }
  return s;
}

/**
 * The name `raw[start, end)` as the standard builds tag and attribute names (§13.2.5.8, .33): ASCII
 * upper alphas lowercased, NUL replaced by U+FFFD (its bytes, with `byteForm`). Shared with earlier
 * calls for the same name.
 */
export function decodeName(raw: string, start: number, end: number, byteForm = false): string {
  const length = end - start;
  if (length > MAX_CACHED_LENGTH || length <= 0) return lowercaseName(raw.slice(start, end), byteForm);
  // The slot comes from the length and three characters (no pass over the whole name): names that share
  // them just take turns in the slot. `| 0x20` lowercases ASCII letters (and leaves the slot stable).
  const last = raw.charCodeAt(end - 1) | 0x20;
  const slot = (length * 131 + (raw.charCodeAt(start) | 0x20) * 31 + (raw.charCodeAt(start + (length >> 1)) | 0x20) * 7 + last) & (SLOTS - 1);
  const cached = cache[slot];
  if (cached.length === length) {
    // One pass: compare, ASCII-lowercasing as we go. A NUL never matches (a cached name has none).
    let i = 0;
    for (; i < length; i++) {
      let c = raw.charCodeAt(start + i);
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if (c !== cached.charCodeAt(i)) break;
    }
    if (i === length) return cached;
  }
  return decodeAndCache(raw, start, end, byteForm, slot);
}

/**
 * `decodeName` on a cache miss: decode the name and keep it in `slot`. Apart from the lookup, which runs
 * for every tag, so that the lookup stays small enough to be inlined into its callers.
 */
function decodeAndCache(raw: string, start: number, end: number, byteForm: boolean, slot: number): string {
  const slice = raw.slice(start, end);
  let name = lowercaseName(slice, byteForm);
  // A name with a NUL is not cached (decoded, its U+FFFD would not compare equal to the raw NUL; and it
  // decodes differently in byte form). Any other name is the same in both.
  if (slice.indexOf('\0') < 0) cache[slot] = name = internalized(name);
  return name;
}
