/**
 * What an attacker would try (issue 20 item 3): documents with every construct, cut off at any point;
 * payloads written to close every context they may land in; every way a handler inserts text or sets a
 * value. The property: the output, parsed again by sluice with scripting on and with scripting off, has
 * no element, attribute or comment that a handler did not create as such — the payload stays text (or
 * an attribute value), wherever it went. A refusal (an Error that names why the text cannot be written
 * there) is an allowed outcome; a silently wrong output is not.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HTMLRewriter } from '@sluice/rewriter';
import { OPS, PAYLOADS, REFUSAL, SELECTORS, document, escapes, register } from './helpers/attacker.js';

describe('what an attacker would try', () => {
  it('inserted text stays text, values stay values: no element, attribute or comment that a handler did not create (fast-check)', async () => {
    let runs = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(document, fc.constantFrom(...OPS), fc.constantFrom(...PAYLOADS), fc.constantFrom(...SELECTORS), async (input, op, payload, selector) => {
        runs++;
        const r = new HTMLRewriter();
        register(r, op, payload, selector);
        let out = '';
        try {
          const t = r.createTransformer((s) => (out += s));
          await t.write(input);
          await t.end();
        } catch (err) {
          expect((err as Error).message).toMatch(REFUSAL);
          refused++;
          return;
        }
        for (const scripting of [true, false]) {
          const found = escapes(out, scripting);
          if (found.length > 0) {
            throw new Error(`${op}(${JSON.stringify(payload)}) on ${selector} in ${JSON.stringify(input)} (scripting ${scripting ? 'on' : 'off'}): ${found.join(', ')}\noutput: ${JSON.stringify(out)}`);
          }
        }
      }),
      { numRuns: 3000 },
    );
    console.log(`attacker: ${runs} runs, ${refused} refused with an error that says why`);
  });
});
