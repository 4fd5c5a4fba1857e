/**
 * The document mode from the DOCTYPE token (WHATWG HTML §13.2.6.4.1, "the initial insertion mode").
 * All comparisons are ASCII case-insensitive; the lists are kept lowercased.
 */
import type { DocumentMode } from './sink.js';

const QUIRKS_PUBLIC_ID_PREFIXES = [
  '+//silmaril//dtd html pro v0r11 19970101//',
  '-//as//dtd html 3.0 aswedit + extensions//',
  '-//advasoft ltd//dtd html 3.0 aswedit + extensions//',
  '-//ietf//dtd html 2.0 level 1//',
  '-//ietf//dtd html 2.0 level 2//',
  '-//ietf//dtd html 2.0 strict level 1//',
  '-//ietf//dtd html 2.0 strict level 2//',
  '-//ietf//dtd html 2.0 strict//',
  '-//ietf//dtd html 2.0//',
  '-//ietf//dtd html 2.1e//',
  '-//ietf//dtd html 3.0//',
  '-//ietf//dtd html 3.2 final//',
  '-//ietf//dtd html 3.2//',
  '-//ietf//dtd html 3//',
  '-//ietf//dtd html level 0//',
  '-//ietf//dtd html level 1//',
  '-//ietf//dtd html level 2//',
  '-//ietf//dtd html level 3//',
  '-//ietf//dtd html strict level 0//',
  '-//ietf//dtd html strict level 1//',
  '-//ietf//dtd html strict level 2//',
  '-//ietf//dtd html strict level 3//',
  '-//ietf//dtd html strict//',
  '-//ietf//dtd html//',
  '-//metrius//dtd metrius presentational//',
  '-//microsoft//dtd internet explorer 2.0 html strict//',
  '-//microsoft//dtd internet explorer 2.0 html//',
  '-//microsoft//dtd internet explorer 2.0 tables//',
  '-//microsoft//dtd internet explorer 3.0 html strict//',
  '-//microsoft//dtd internet explorer 3.0 html//',
  '-//microsoft//dtd internet explorer 3.0 tables//',
  '-//netscape comm. corp.//dtd html//',
  '-//netscape comm. corp.//dtd strict html//',
  "-//o'reilly and associates//dtd html 2.0//",
  "-//o'reilly and associates//dtd html extended 1.0//",
  "-//o'reilly and associates//dtd html extended relaxed 1.0//",
  '-//sq//dtd html 2.0 hotmetal + extensions//',
  '-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//',
  '-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//',
  '-//spyglass//dtd html 2.0 extended//',
  '-//sun microsystems corp.//dtd hotjava html//',
  '-//sun microsystems corp.//dtd hotjava strict html//',
  '-//w3c//dtd html 3 1995-03-24//',
  '-//w3c//dtd html 3.2 draft//',
  '-//w3c//dtd html 3.2 final//',
  '-//w3c//dtd html 3.2//',
  '-//w3c//dtd html 3.2s draft//',
  '-//w3c//dtd html 4.0 frameset//',
  '-//w3c//dtd html 4.0 transitional//',
  '-//w3c//dtd html experimental 19960712//',
  '-//w3c//dtd html experimental 970421//',
  '-//w3c//dtd w3 html//',
  '-//w3o//dtd w3 html 3.0//',
  '-//webtechs//dtd mozilla html 2.0//',
  '-//webtechs//dtd mozilla html//',
];
const QUIRKS_PUBLIC_IDS = ['-//w3o//dtd w3 html strict 3.0//en//', '-/w3c/dtd html 4.0 transitional/en', 'html'];
const QUIRKS_SYSTEM_ID = 'http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd';
/** Quirks when the system identifier is missing, limited-quirks when it is present. */
const HTML401_PREFIXES = ['-//w3c//dtd html 4.01 frameset//', '-//w3c//dtd html 4.01 transitional//'];
const LIMITED_QUIRKS_PUBLIC_ID_PREFIXES = ['-//w3c//dtd xhtml 1.0 frameset//', '-//w3c//dtd xhtml 1.0 transitional//'];

const startsWithAny = (s: string, prefixes: readonly string[]) => prefixes.some((p) => s.startsWith(p));

/** The document mode a DOCTYPE token sets (not for `iframe srcdoc` documents, which are always no-quirks). */
export function documentModeOf(doctype: {
  readonly name: string | null;
  readonly publicId: string | null;
  readonly systemId: string | null;
  readonly forceQuirks: boolean;
}): DocumentMode {
  if (doctype.forceQuirks || doctype.name !== 'html') return 'quirks';
  const publicId = doctype.publicId?.toLowerCase() ?? null;
  const systemId = doctype.systemId?.toLowerCase() ?? null;
  if (systemId === QUIRKS_SYSTEM_ID) return 'quirks';
  if (publicId === null) return 'no-quirks';
  if (QUIRKS_PUBLIC_IDS.includes(publicId) || startsWithAny(publicId, QUIRKS_PUBLIC_ID_PREFIXES)) return 'quirks';
  if (startsWithAny(publicId, HTML401_PREFIXES)) return systemId === null ? 'quirks' : 'limited-quirks';
  if (startsWithAny(publicId, LIMITED_QUIRKS_PUBLIC_ID_PREFIXES)) return 'limited-quirks';
  return 'no-quirks';
}

/** §13.2.6.4.1: whether the DOCTYPE token is a parse error. */
export function isDoctypeParseError(doctype: {
  readonly name: string | null;
  readonly publicId: string | null;
  readonly systemId: string | null;
}): boolean {
  return (
    doctype.name !== 'html' ||
    doctype.publicId !== null ||
    (doctype.systemId !== null && doctype.systemId !== 'about:legacy-compat')
  );
}
