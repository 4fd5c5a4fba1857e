/** Shared by the DOM's editing suites: checking the DOMException a call throws. */
import { expect } from 'vitest';

/** Run `f`; return the DOMException it throws (fails if it throws nothing or something else). */
export function thrown(f: () => unknown): DOMException {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(DOMException);
    return e as DOMException;
  }
  throw new Error('expected a DOMException, nothing was thrown');
}

/** `f` throws a DOMException named `name` whose message matches `message` (and does not repeat the name). */
export function expectError(f: () => unknown, name: string, message: RegExp): void {
  const e = thrown(f);
  expect(e.name).toBe(name);
  expect(e.message).toMatch(message);
  // The message names the problem; the name is not repeated in it (String(e) is `name: message`).
  expect(e.message.startsWith(name)).toBe(false);
  expect(String(e)).toBe(`${name}: ${e.message}`);
}
