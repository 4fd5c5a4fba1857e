import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { characterEntities } from 'character-entities';
import { characterEntitiesLegacy } from 'character-entities-legacy';
import {
  NAMED_REFERENCE_COUNT,
  NAMED_ROOT,
  decodeCharacterReferences,
  namedValue,
  stepNamed,
} from '../src/character-references/index.js';

/** The WHATWG table, straight from the source packages: name (as written after '&') → value. */
const NAMES = new Map<string, string>();
for (const [name, value] of Object.entries(characterEntities)) NAMES.set(`${name};`, value);
for (const name of characterEntitiesLegacy) NAMES.set(name, characterEntities[name]);

function walk(name: string): number {
  let node = NAMED_ROOT;
  for (let i = 0; i < name.length && node >= 0; i++) node = stepNamed(node, name.charCodeAt(i));
  return node;
}

type Errors = Array<[string, number]>;

function decode(text: string, inAttribute = false): { value: string; errors: Errors } {
  const errors: Errors = [];
  const value = decodeCharacterReferences(text, inAttribute, (code, index) => errors.push([code, index]));
  return { value, errors };
}

describe('named character reference table', () => {
  it('has the 2,231 names of the WHATWG list', () => {
    expect(NAMES.size).toBe(2231);
    expect(NAMED_REFERENCE_COUNT).toBe(2231);
  });

  it('steps every name to a node holding its value', () => {
    for (const [name, value] of NAMES) {
      const node = walk(name);
      expect(node, name).toBeGreaterThan(0);
      expect(namedValue(node), name).toBe(value);
    }
  });

  it('gives null for prefixes that are not names', () => {
    let checked = 0;
    for (const name of NAMES.keys()) {
      for (let end = 1; end < name.length; end++) {
        const prefix = name.slice(0, end);
        if (NAMES.has(prefix)) continue;
        const node = walk(prefix);
        expect(node, prefix).toBeGreaterThan(0);
        expect(namedValue(node), prefix).toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(namedValue(NAMED_ROOT)).toBeNull();
  });

  it('holds no name beyond the list (exhaustive walk)', () => {
    const found = new Map<string, string>();
    const alphabet: number[] = [];
    for (let c = 0x20; c < 0x7f; c++) alphabet.push(c);
    const visit = (node: number, path: string) => {
      const value = namedValue(node);
      if (value !== null) found.set(path, value);
      for (const c of alphabet) {
        const child = stepNamed(node, c);
        if (child >= 0) visit(child, path + String.fromCharCode(c));
      }
    };
    visit(NAMED_ROOT, '');
    expect(found).toEqual(NAMES);
  });

  it('has no edges for code units outside the names', () => {
    const amp = walk('amp');
    for (const code of [-1, 0, 0x26, 0x3d, 0x80, 0xe9, 0xd835, 0xffff]) {
      expect(stepNamed(NAMED_ROOT, code)).toBe(-1);
      expect(stepNamed(amp, code)).toBe(-1);
    }
    expect(stepNamed(walk('amp;'), 0x3b)).toBe(-1);
  });

  it('is generated from the current source packages', async () => {
    // @ts-expect-error -- a plain .mjs script without type declarations
    const { renderNamedTable } = await import('../scripts/generate-named-character-references.mjs');
    const committed = readFileSync(new URL('../src/character-references/named-table.ts', import.meta.url), 'utf8');
    expect(committed === renderNamedTable(), 'run scripts/generate-named-character-references.mjs').toBe(true);
  });
});

describe('decodeCharacterReferences', () => {
  it('returns text without & as the same string', () => {
    const text = 'plain text, no references at all: <>"\'=;#\r\n\0';
    expect(decodeCharacterReferences(text, false)).toBe(text);
    expect(decodeCharacterReferences(text, true)).toBe(text);
  });

  // [input, in attribute?, output, errors]
  const cases: Array<[string, boolean, string, Errors]> = [
    // §13.2.5.72: & followed by neither alphanumeric nor '#'
    ['&', false, '&', []],
    ['a & b && c &;', false, 'a & b && c &;', []],
    ['&\u00ac;', false, '&\u00ac;', []],
    // named, with ';'
    ['&amp;', false, '&', []],
    ['x&lt;y&gt;z', false, 'x<y>z', []],
    ['&amp;', true, '&', []],
    ['&Afr;', false, '\u{1D504}', []],
    ['&NotEqualTilde;', false, '\u2242\u0338', []],
    ['&NotEqualTilde;', true, '\u2242\u0338', []],
    ['&fjlig;', false, 'fj', []],
    ['&CounterClockwiseContourIntegral;!', false, '\u2233!', []],
    // longest match, legacy names without ';'
    ['&amp', false, '&', [['missing-semicolon-after-character-reference', 4]]],
    ['&ampx', false, '&x', [['missing-semicolon-after-character-reference', 4]]],
    ["I'm &notit;", false, "I'm \u00acit;", [['missing-semicolon-after-character-reference', 8]]],
    ["I'm &notin;", false, "I'm \u2209", []],
    ["I'm &notin", false, "I'm \u00acin", [['missing-semicolon-after-character-reference', 8]]],
    ['&amp&lt;', false, '&<', [['missing-semicolon-after-character-reference', 4]]],
    ['&AMP;&AMP', false, '&&', [['missing-semicolon-after-character-reference', 9]]],
    // in an attribute value, a legacy name without ';' before '=' or an alphanumeric stays
    ['&notx', true, '&notx', []],
    ['&not1', true, '&not1', []],
    ['&not=', true, '&not=', []],
    ['&noti;', true, '&noti;', []],
    ['?a=1&copy=2', true, '?a=1&copy=2', []],
    ['&not;x', true, '\u00acx', []],
    ['&not x', true, '\u00ac x', [['missing-semicolon-after-character-reference', 4]]],
    ['&not', true, '\u00ac', [['missing-semicolon-after-character-reference', 4]]],
    ['&COPY', true, '\u00a9', [['missing-semicolon-after-character-reference', 5]]],
    ['&not-', true, '\u00ac-', [['missing-semicolon-after-character-reference', 4]]],
    ['&notx', false, '\u00acx', [['missing-semicolon-after-character-reference', 4]]],
    ['&not=', false, '\u00ac=', [['missing-semicolon-after-character-reference', 4]]],
    // no match: ambiguous ampersand (§13.2.5.74)
    ['&no', false, '&no', []],
    ['&rrrraannddom;', false, '&rrrraannddom;', [['unknown-named-character-reference', 13]]],
    ['&NotEqualTild;', false, '&NotEqualTild;', [['unknown-named-character-reference', 13]]],
    ['&xlink_xmlns;', true, '&xlink_xmlns;', []],
    ['&foo bar;', false, '&foo bar;', []],
    ['&9;', false, '&9;', [['unknown-named-character-reference', 2]]],
    ['&lang=', true, '&lang=', []],
    // numeric
    ['&#65;&#x41;&#X41;&#x61;', false, 'AAAa', []],
    ['&#0036;', false, '$', []],
    ['&#xaBcD;', false, '\uabcd', []],
    ['&#x1D504;', false, '\u{1D504}', []],
    ['&#97a', false, 'aa', [['missing-semicolon-after-character-reference', 4]]],
    ['&#x41g', true, 'Ag', [['missing-semicolon-after-character-reference', 5]]],
    ['&#', false, '&#', [['absence-of-digits-in-numeric-character-reference', 2]]],
    ['&#x', false, '&#x', [['absence-of-digits-in-numeric-character-reference', 3]]],
    [
      '&# &#; &#x &#X;&#xg',
      false,
      '&# &#; &#x &#X;&#xg',
      [
        ['absence-of-digits-in-numeric-character-reference', 2],
        ['absence-of-digits-in-numeric-character-reference', 5],
        ['absence-of-digits-in-numeric-character-reference', 10],
        ['absence-of-digits-in-numeric-character-reference', 14],
        ['absence-of-digits-in-numeric-character-reference', 18],
      ],
    ],
    ['&#A', false, '&#A', [['absence-of-digits-in-numeric-character-reference', 2]]],
    ['&#0;', false, '\ufffd', [['null-character-reference', 4]]],
    [
      '&#x0',
      false,
      '\ufffd',
      [
        ['missing-semicolon-after-character-reference', 4],
        ['null-character-reference', 4],
      ],
    ],
    ['&#x110000;', false, '\ufffd', [['character-reference-outside-unicode-range', 10]]],
    ['&#x10FFFF;', false, '\u{10FFFF}', [['noncharacter-character-reference', 10]]],
    ['&#xD800;', false, '\ufffd', [['surrogate-character-reference', 8]]],
    ['&#xDFFF;', false, '\ufffd', [['surrogate-character-reference', 8]]],
    ['&#xFDD0;&#xFFFE;', false, '\ufdd0\ufffe', [
      ['noncharacter-character-reference', 8],
      ['noncharacter-character-reference', 16],
    ]],
    ['&#13;', false, '\r', [['control-character-reference', 5]]],
    ['&#1;&#x7F;', false, '\u0001\u007f', [
      ['control-character-reference', 4],
      ['control-character-reference', 10],
    ]],
    ['&#9;&#10;&#12;&#32;', false, '\t\n\f ', []],
    ['&#128;', false, '\u20ac', [['control-character-reference', 6]]],
    ['&#x81;', false, '\u0081', [['control-character-reference', 6]]],
    ['&#x9F;', false, '\u0178', [['control-character-reference', 6]]],
    ['&#xA0;', false, '\u00a0', []],
    // overflow: digit runs far past 32 and 64 bits
    ['&#x1000000000000000041;', false, '\ufffd', [['character-reference-outside-unicode-range', 23]]],
    ['&#18446744073709551681;', false, '\ufffd', [['character-reference-outside-unicode-range', 23]]],
    ['&#x100000041;', false, '\ufffd', [['character-reference-outside-unicode-range', 13]]],
    [`&#x${'0'.repeat(300)}41;`, false, 'A', []],
    [`&#${'9'.repeat(400)}`, false, '\ufffd', [
      ['missing-semicolon-after-character-reference', 402],
      ['character-reference-outside-unicode-range', 402],
    ]],
    // newlines and NUL are never part of a reference
    ['&amp\n&#65\r\n\0&lt;', false, '&\nA\r\n\0<', [
      ['missing-semicolon-after-character-reference', 4],
      ['missing-semicolon-after-character-reference', 9],
    ]],
  ];

  it.each(cases)('%j (attribute: %s)', (input, inAttribute, output, errors) => {
    expect(decode(input, inAttribute)).toEqual({ value: output, errors });
    expect(decodeCharacterReferences(input, inAttribute)).toBe(output);
  });
});

// ---------------------------------------------------------------------------------------------------
// Property tests against a naive oracle: the states of §13.2.5.72–80 transcribed one character at a
// time, with the longest match found by trying every slice against the name map, and BigInt digits.

const LONGEST_NAME = Math.max(...[...NAMES.keys()].map((name) => name.length));
const C1 = new Map<number, number>([
  [0x80, 0x20ac], [0x82, 0x201a], [0x83, 0x0192], [0x84, 0x201e], [0x85, 0x2026], [0x86, 0x2020],
  [0x87, 0x2021], [0x88, 0x02c6], [0x89, 0x2030], [0x8a, 0x0160], [0x8b, 0x2039], [0x8c, 0x0152],
  [0x8e, 0x017d], [0x91, 0x2018], [0x92, 0x2019], [0x93, 0x201c], [0x94, 0x201d], [0x95, 0x2022],
  [0x96, 0x2013], [0x97, 0x2014], [0x98, 0x02dc], [0x99, 0x2122], [0x9a, 0x0161], [0x9b, 0x203a],
  [0x9c, 0x0153], [0x9e, 0x017e], [0x9f, 0x0178],
]);

function oracle(text: string, inAttribute: boolean): { value: string; errors: Errors } {
  const errors: Errors = [];
  const alnum = (c: string | undefined) => c !== undefined && /^[0-9A-Za-z]$/.test(c);
  let value = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '&') {
      value += text[i++];
      continue;
    }
    i++;
    if (alnum(text[i])) {
      let best = '';
      for (let n = 1; n <= LONGEST_NAME && i + n <= text.length; n++) {
        if (NAMES.has(text.slice(i, i + n))) best = text.slice(i, i + n);
      }
      if (best !== '') {
        const end = i + best.length;
        if (inAttribute && !best.endsWith(';') && (text[end] === '=' || alnum(text[end]))) {
          value += `&${best}`;
        } else {
          if (!best.endsWith(';')) errors.push(['missing-semicolon-after-character-reference', end]);
          value += NAMES.get(best);
        }
        i = end;
      } else {
        value += '&';
        while (alnum(text[i])) value += text[i++];
        if (text[i] === ';') errors.push(['unknown-named-character-reference', i]);
      }
    } else if (text[i] === '#') {
      i++;
      const hex = text[i] === 'x' || text[i] === 'X';
      const prefix = hex ? `&#${text[i++]}` : '&#';
      const digits = hex ? /^[0-9A-Fa-f]+/ : /^[0-9]+/;
      const run = digits.exec(text.slice(i))?.[0];
      if (run === undefined) {
        errors.push(['absence-of-digits-in-numeric-character-reference', i]);
        value += prefix;
        continue;
      }
      i += run.length;
      if (text[i] === ';') i++;
      else errors.push(['missing-semicolon-after-character-reference', i]);
      const big = BigInt(hex ? `0x${run}` : run);
      let code = big > 0x10ffffn ? -1 : Number(big);
      if (code === 0) {
        errors.push(['null-character-reference', i]);
        code = 0xfffd;
      } else if (code === -1) {
        errors.push(['character-reference-outside-unicode-range', i]);
        code = 0xfffd;
      } else if (code >= 0xd800 && code <= 0xdfff) {
        errors.push(['surrogate-character-reference', i]);
        code = 0xfffd;
      } else if ((code >= 0xfdd0 && code <= 0xfdef) || code % 0x10000 >= 0xfffe) {
        errors.push(['noncharacter-character-reference', i]);
      } else if (code === 0x0d || ((code < 0x20 || (code >= 0x7f && code < 0xa0)) && !'\t\n\f\r '.includes(String.fromCharCode(code)))) {
        errors.push(['control-character-reference', i]);
        code = C1.get(code) ?? code;
      }
      value += String.fromCodePoint(code);
    } else {
      value += '&';
    }
  }
  return { value, errors };
}

const nameList = [...NAMES.keys()];
/** Names, names cut short (prefixes, legacy names without ';'), and alphanumeric runs that are no name. */
const nameLike = fc.oneof(
  fc.constantFrom('amp', 'not', 'notin', 'noti', 'lt', 'NotEqualTilde', 'Afr', 'fjlig', 'copy', 'COPY'),
  fc.constantFrom(...characterEntitiesLegacy),
  fc.constantFrom(...nameList),
  fc.tuple(fc.constantFrom(...nameList), fc.nat()).map(([name, cut]) => name.slice(0, 1 + (cut % name.length))),
  fc.stringMatching(/^[0-9A-Za-z]{1,8}$/),
);
const digits = fc.oneof(
  fc.nat({ max: 0x11ffff }).map((n) => n.toString(16)),
  fc.nat({ max: 0x11ffff }).map((n) => n.toString(10)),
  fc.constantFrom('0', '00', '80', '9F', 'D800', 'FDD0', 'FFFE', '10FFFF', '110000', '13', 'x', ''),
  fc.bigInt({ min: 0n, max: 1n << 80n }).map((n) => n.toString()),
);
/** What may follow a reference: the characters its rules look at. */
const follower = fc.constantFrom('', ';', '=', 'x', 'A', '1', ' ', '&', '#', '\n', '\0');
const reference = fc.oneof(
  fc.tuple(fc.constant('&'), nameLike, follower),
  fc.tuple(fc.constantFrom('&#', '&#x', '&#X'), digits, follower),
).map((parts) => parts.join(''));
const piece = fc.oneof(
  reference,
  reference,
  fc.constantFrom('&', '&#', ';', '=', ' ', 'a', '9'),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const referenceText = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('decodeCharacterReferences properties', () => {
  it('returns text without & unchanged (the same string)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (raw, inAttribute) => {
        const text = raw.replaceAll('&', '');
        expect(decodeCharacterReferences(text, inAttribute, () => expect.fail('no error expected'))).toBe(text);
      }),
    );
  });

  it('never throws, on any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), referenceText), fc.boolean(), (text, inAttribute) => {
        decodeCharacterReferences(text, inAttribute);
        decodeCharacterReferences(text, inAttribute, () => {});
      }),
    );
  });

  it('agrees with a naive transcription of the states, errors and positions included', () => {
    fc.assert(
      fc.property(referenceText, fc.boolean(), (text, inAttribute) => {
        expect(decode(text, inAttribute)).toEqual(oracle(text, inAttribute));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('decodeCharacterReferences and newline normalization', () => {
  it('must see normalized text: a source CR before a reference that makes LF is not a CRLF', () => {
    expect(decode('\r&#10;'.replace(/\r\n?/g, '\n')).value).toBe('\n\n');
    expect(decode('\r&#10;').value.replace(/\r\n?/g, '\n')).toBe('\n');
  });

  it('reports the same errors on raw and on normalized text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(referenceText, fc.constantFrom('\r', '\r\n', '\n')), { maxLength: 6 }), fc.boolean(), (parts, inAttribute) => {
        const raw = parts.join('');
        const normalized = raw.replace(/\r\n?/g, '\n');
        const codes = (text: string) => decode(text, inAttribute).errors.map(([code]) => code);
        expect(codes(raw)).toEqual(codes(normalized));
        // Decoding keeps CRs where they were, so normalizing afterwards gives the same result, except
        // when a reference made a CR (`&#13;`: normalized text has none of its own) or made an LF right
        // after a source CR (`\r&#10;`: normalizing afterwards would merge the two). That is why the
        // contract is to normalize first.
        const value = decode(normalized, inAttribute).value;
        if (!value.includes('\r') && !raw.includes('\r&')) {
          expect(decode(raw, inAttribute).value.replace(/\r\n?/g, '\n')).toBe(value);
        }
      }),
    );
  });
});
