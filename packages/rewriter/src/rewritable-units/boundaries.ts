/**
 * Inserted text next to source text. Escaping text for its context (content.ts) keeps the text from
 * making markup *by itself*; here it is kept from making markup *together with the source before it*,
 * which the escaping alone does not see (HTML §13.2.5):
 *
 * - `&am` + `p;` is the reference `&amp;`, `<` + `b>` a tag, `\r` + `\n` one newline, `</tit` + `le>` the
 *   end of a `<title>`;
 * - in raw text and script data, `<style>x</sty` + `le>` ends the style, `<script><!-` + `-` enters the
 *   script's escaped state, `<scr` + `ipt>` its double-escaped state, `--` + `>` leaves it.
 *
 * Where character references exist (ordinary content, RCDATA), the inserted text's first character is
 * written as its reference — the same character, which continues nothing. In raw text and script data
 * none exists: the insertion is refused with an error that names what it would continue.
 *
 * (Inserted text cannot end in such a construct itself where the escaping sees it — `</` and `<!--` are
 * escaped; `checkRawTextEnd` refuses raw text that ends in `<`, `</x`, `<!`, `<!-` or `<scri`.)
 */
import type { ContentContext } from './content.js';

/** Source text, at its end, that a following character could still change, where references exist. */
const DATA_OPEN_TAIL = /(?:&[A-Za-z0-9#]*|\r|<\/?[A-Za-z]*)$/;

/** Whether `context` is one whose text has no character references (raw text, script data). */
function isRaw(context: ContentContext): boolean {
  return context === 'script' || context === 'style' || context === 'rawtext' || context === 'noscript';
}

/**
 * In raw text or script data: what `tail` (the source's end) and `content` (the inserted text's start)
 * make together that neither makes alone, or null.
 */
function rawSpan(tail: string, content: string, script: boolean): string | null {
  const c0 = content.charAt(0);
  // An end tag: `<` + `/x`, `</` + `x`, `</sty` + `le>` (any name: which one is appropriate is not known here).
  if (tail.endsWith('<') && c0 === '/') return '</';
  const open = /<\/[A-Za-z]*$/.exec(tail);
  if (open !== null && /^[A-Za-z\t\n\f\r />]/.test(content)) return open[0];
  if (!script) return null;
  // Script data's escape states (§13.2.5.18–.31).
  const joined = tail.slice(-9) + content.slice(0, 9);
  const at = tail.slice(-9).length;
  for (const pattern of [/<!--/g, /-->/g, /<script[\t\n\f\r />]/gi]) {
    for (let m = pattern.exec(joined); m !== null; m = pattern.exec(joined)) {
      if (m.index < at && m.index + m[0].length > at) return m[0];
    }
  }
  return null;
}

/**
 * `content` (already escaped for `context`) to be written right after source text ending in `tail`:
 * as it is, with its first character as a reference, or refused (thrown, naming `where`).
 *
 * `tail` is the end of the source written since the last content, however the chunks cut it into
 * tokens (the tokenizer emits `&0` before the next chunk's `0`: the tail is still `&00`, so the rule
 * gives the same answer for any chunking); `truncated`: more source came before it. A truncated tail of only `[A-Za-z0-9#]` may be the rest of an `&…` that began before it
 * (`&#` and any number of digits is one reference), so it counts as open: a reference is always safe.
 */
export function afterSource(tail: string, content: string, context: ContentContext, where: string, truncated = false): string {
  if (content.length === 0 || tail.length === 0) return content;
  if (isRaw(context)) {
    const made = rawSpan(tail, content, context === 'script');
    if (made !== null) {
      throw new Error(
        `${where}: text inserted right after ${JSON.stringify(tail.slice(-8))} in ${context === 'script' ? 'a script' : 'raw text'} would make ${JSON.stringify(made)} with it (no character references exist there to keep them apart)`,
      );
    }
    return content;
  }
  if (context !== 'data' || !(DATA_OPEN_TAIL.test(tail) || (truncated && /^[A-Za-z0-9#]+$/.test(tail)))) return content;
  // `<` and `&` continue nothing the tail holds (`&am&`, `<<`, `</tit<`); any other character is
  // written as its reference.
  const c = content.codePointAt(0)!;
  if (c === 0x3c || c === 0x26) return content;
  return `&#${c};${content.slice(c > 0xffff ? 2 : 1)}`;
}

/**
 * Throws when text inserted into raw text or script data (`content`, escaped for it) ends in the start
 * of something the source after it could complete: `<`, `</x`, and in a script `<!`, `<!-`, `<s`…`<scrip`.
 */
export function checkRawTextEnd(content: string, context: ContentContext, where: string): void {
  if (!isRaw(context)) return;
  const m = (context === 'script' ? /(?:<|<\/[A-Za-z]*|<!-?|<(?:s|sc|scr|scri|scrip|script))$/i : /(?:<|<\/[A-Za-z]*)$/).exec(content);
  if (m !== null) {
    throw new Error(
      `${where}: text ending in ${JSON.stringify(m[0])} cannot be inserted into ${context === 'script' ? 'a script' : 'raw text'}: the source after it could continue it`,
    );
  }
}
