/** The example rewrite: `http:` links become `https:`, and a banner goes in before `</body>`. */
import { HTMLRewriter, type RewriterOptions } from '@sluice/rewriter';

/** The default banner. */
export const DEFAULT_BANNER = '<div class="sluice-banner" role="note">Served through the sluice example proxy</div>';

const LINKS = 'a[href^="http:" i], area[href^="http:" i], link[href^="http:" i]';

/**
 * Build the HTMLRewriter for one response. The banner is inserted before `</body>`; a document with
 * no `<body>` start tag (an implied body: element handlers do not fire on it) gets it at its end, which
 * parses into the body just the same.
 */
export function exampleRewriter(banner: string = DEFAULT_BANNER, options: RewriterOptions = {}): HTMLRewriter {
  let inserted = false;
  return new HTMLRewriter(options)
    .on(LINKS, {
      element(el) {
        const href = el.getAttribute('href')!;
        el.setAttribute('href', `https:${href.slice(5)}`);
      },
    })
    .on('body', {
      element(el) {
        el.onEndTag((end) => {
          end.before(banner, { html: true });
          inserted = true;
        });
      },
    })
    .onDocument({
      end(end) {
        if (!inserted) end.append(banner, { html: true });
      },
    });
}
