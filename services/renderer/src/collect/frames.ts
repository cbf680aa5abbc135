/**
 * What a frame of the page's own site shows: a frameset's pages, or a same-site `<iframe>` (an old
 * site's contact page often is one). innerText and the links of the frame's document stop at its
 * `<frame>`/`<iframe>`, so without this a frameset page read as empty. Runs in each such frame with
 * the element collectors' parts (ELEMENT_PARTS: anchorsOf, cleanText).
 */
import type { PageHelpers } from './page-helpers.ts';
import type { AnchorsOf, ElementLimits } from './elements.ts';

// Defined in the page by ELEMENT_PARTS, which are sent with this collector (runInPage).
declare const anchorsOf: AnchorsOf;

export interface FrameLimits extends ElementLimits {
  visibleTextChars: number;
}

/** Runs in a frame (runInPage with ELEMENT_PARTS): its text as the page's visible text is read (a line per table cell), and its links. */
export function collectFrameContent(h: PageHelpers, L: FrameLimits) {
  const clean = (s: string): string =>
    s
      .replace(/\t/g, '\n')
      .replace(/[ \t\f\v\u00a0]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim();
  const text = clean(document.body ? document.body.innerText : '').slice(0, L.visibleTextChars);
  const truncated: string[] = [];
  const anchors = anchorsOf(h, L, truncated, h.shadowRoots());
  return { text, anchors, truncated };
}
