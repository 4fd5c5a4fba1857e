#!/usr/bin/env node
// Micro benchmark: decodeCharacterReferences on text full of references, and on ordinary prose with a
// few. Prints MB/s (of UTF-16 code units, as MB of string length); when the `entities` package is
// installed in bench/, its decodeHTML runs on the same inputs for comparison.
// Run after building: npx tsc -b packages/tokenizer && node bench/character-references.mjs
import { decodeCharacterReferences } from '../packages/tokenizer/dist/character-references/index.js';

const dense = ['&amp;', 'a&lt;b', '&gt', ' &copy; ', '&#65;', '&#x1D504;', '&NotEqualTilde;', ' & ', '&notin;', '&notit', 'x&#128;y', '&rrrr;', 'text ']
  .join('')
  .repeat(20_000);
const prose = 'The quick brown fox jumps over the lazy dog; caf&eacute; &amp; cr&egrave;me, 5 &lt; 7.\n'.repeat(12_000);

let entitiesDecode = null;
try {
  ({ decodeHTML: entitiesDecode } = await import('entities'));
} catch {
  // not installed in bench/: sluice alone
}

function measure(decode, text) {
  for (let i = 0; i < 3; i++) decode(text); // warm up
  let runs = 0;
  let sink = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < 1e9) {
    sink += decode(text).length;
    runs++;
    elapsed = Number(process.hrtime.bigint() - start);
  }
  if (sink === 0) throw new Error('nothing decoded');
  return (text.length * runs) / 1e6 / (elapsed / 1e9);
}

for (const [name, text] of [['dense references', dense], ['prose', prose]]) {
  const ours = measure((t) => decodeCharacterReferences(t, false), text);
  let line = `${name.padEnd(18)} ${(text.length / 1e6).toFixed(2)} MB   sluice ${ours.toFixed(0)} MB/s`;
  if (entitiesDecode) {
    const theirs = measure(entitiesDecode, text);
    line += `   entities.decodeHTML ${theirs.toFixed(0)} MB/s   ratio ${(ours / theirs).toFixed(2)}x`;
  }
  console.log(line);
}
