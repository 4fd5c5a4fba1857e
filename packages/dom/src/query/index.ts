/** Querying the DOM with selectors (see query.ts), and `document.title` (title.ts). */
export { querySelector, querySelectorAll, matches, closest, getElementsByClassName, compileSelectors } from './query.js';
export { getTitle, setTitle } from './title.js';
