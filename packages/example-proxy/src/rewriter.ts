/** The example rewrite: `http:` links become `https:`, and a banner goes in at the end of the body. */
import { HTMLRewriter, type RewriterOptions } from '@sluice/rewriter';

/** The default banner. */
export const DEFAULT_BANNER = '<div class="sluice-banner" role="note">Served through the sluice example proxy</div>';

const LINKS = 'a[href^="http:" i], area[href^="http:" i], link[href^="http:" i]';

/**
 * Build the HTMLRewriter for one response. The banner is appended to the body, whether the document
 * has a `<body>` tag or the tree builder implied one (element handlers fire on implied elements): it
 * lands before `</body>`, or at the end of a document without one. (A frameset document has no body.)
 */
export function exampleRewriter(banner: string = DEFAULT_BANNER, options: RewriterOptions = {}): HTMLRewriter {
  return new HTMLRewriter(options)
    .on(LINKS, {
      element(el) {
        const href = el.getAttribute('href')!;
        el.setAttribute('href', `https:${href.slice(5)}`);
      },
    })
    .on('body', {
      element(el) {
        el.append(banner, { html: true });
      },
    });
}
