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
const SLOT_BITS = 12;
const SLOTS = 1 << SLOT_BITS;
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
  if (length <= MAX_PACKED_LENGTH) {
    // Short names (nine tags in ten): the characters packed into an integer, which is itself the
    // lookup key — no hashing, and a hit needs no character comparison.
    let key = 0;
    let i = start;
    for (; i < end; i++) {
      const c = raw.charCodeAt(i);
      const code = c < 0x80 ? PACK_CODE[c] : 0;
      if (code === 0) break;
      key = (key << 6) | code;
    }
    if (i === end && length > 0) {
      // Fibonacci hashing: the top bits of the product mix every character of the key.
      // Two ways: a name is in its slot or the one beside it (see `decodeAndPack`).
      const slot = Math.imul(key, 0x9e3779b1) >>> (32 - PACKED_BITS);
      if (packedKeys[slot] === key) return packedNames[slot];
      if (packedKeys[slot ^ 1] === key) return packedNames[slot ^ 1];
      return decodeAndPack(raw, start, end, byteForm, key, slot);
    }
  }
  if (length > MAX_CACHED_LENGTH || length <= 0) return lowercaseName(raw.slice(start, end), byteForm);
  // The slot comes from the length and four characters (no pass over the whole name), mixed by Fibonacci
  // hashing: names that share them just take turns in the slot (a sum of three characters made common
  // pairs such as `action` and `border`, `xmlns:apcm` and `xmlns:apnm` evict each other on every tag).
  // `| 0x20` lowercases ASCII letters (and leaves the slot stable).
  const h =
    (raw.charCodeAt(start) | 0x20) ^
    ((raw.charCodeAt(start + (length >> 1)) | 0x20) << 7) ^
    ((raw.charCodeAt(end - 2) | 0x20) << 14) ^
    ((raw.charCodeAt(end - 1) | 0x20) << 21) ^
    (length << 28);
  const slot = Math.imul(h, 0x9e3779b1) >>> (32 - SLOT_BITS);
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
  return decodeInOtherWay(raw, start, end, byteForm, slot);
}

/** `decodeName` when the name is not in its slot: the second way (see `decodeAndCache`), or decode it. */
function decodeInOtherWay(raw: string, start: number, end: number, byteForm: boolean, slot: number): string {
  const other = cache[slot ^ 1];
  if (other.length === end - start && nameIs(raw, start, other)) return other;
  return decodeAndCache(raw, start, end, byteForm, slot);
}

/** Whether the name at `raw[start, start + name.length)` decodes to `name`, a cached (decoded) name. */
function nameIs(raw: string, start: number, name: string): boolean {
  // One pass: compare, ASCII-lowercasing as we go. A NUL never matches (a cached name has none).
  for (let i = 0; i < name.length; i++) {
    let c = raw.charCodeAt(start + i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * Names of up to five characters, each an ASCII letter (either case), digit, `-`, `_`, `:` or `.`, are
 * looked up by a key that packs their characters six bits each (a letter's code is the same in both
 * cases: names are ASCII-lowercased). Every code is non-zero, so names of different lengths never share
 * a key, and the key alone tells two names apart.
 */
const MAX_PACKED_LENGTH = 5;
const PACK_CODE = new Uint8Array(0x80);
for (let c = 0; c < 26; c++) PACK_CODE[0x41 + c] = PACK_CODE[0x61 + c] = 1 + c;
for (let c = 0; c < 10; c++) PACK_CODE[0x30 + c] = 27 + c;
PACK_CODE[0x2d] = 37;
PACK_CODE[0x5f] = 38;
PACK_CODE[0x3a] = 39;
PACK_CODE[0x2e] = 40;
/** Slots of the packed cache (a power of two); a collision replaces the older entry. */
const PACKED_BITS = 11;
const PACKED_SLOTS = 1 << PACKED_BITS;
const packedKeys = new Int32Array(PACKED_SLOTS); // 0 is no name's key
const packedNames: string[] = new Array<string>(PACKED_SLOTS).fill('');

/** `decodeName` on a miss of the packed cache: decode the name (it has no NUL) and keep it. */
function decodeAndPack(raw: string, start: number, end: number, byteForm: boolean, key: number, slot: number): string {
  const name = internalized(lowercaseName(raw.slice(start, end), byteForm));
  // The slot's name moves beside it (the older one there goes): two names that share a slot both stay.
  packedKeys[slot ^ 1] = packedKeys[slot];
  packedNames[slot ^ 1] = packedNames[slot];
  packedKeys[slot] = key;
  packedNames[slot] = name;
  return name;
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
  if (slice.indexOf('\0') < 0) {
    // As in the packed cache: the slot's name moves beside it.
    cache[slot ^ 1] = cache[slot];
    cache[slot] = name = internalized(name);
  }
  return name;
}
