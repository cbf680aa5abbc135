/**
 * The renderer's hook for pages that are not the site. `trackMainResponse` follows the main
 * frame's document responses (a challenge that reloads itself leaves its last answer here);
 * `checkContentType` runs right after navigation (a PDF or an image needs no settling);
 * `checkWall` runs on the settled page (consent banners already removed) and throws
 * TARGET_NOT_A_SITE with the client's message.
 */
import { STATUS_CODES } from 'node:http';
import type { Page, Response } from 'playwright-core';
import { TargetNotASiteError } from '@enrich/shared/errors';
import { detectWall, httpError, MARKER_SELECTORS, mediaTypeName, notHtml, type PageFacts, type Wall } from './detect.ts';

const LIMITS = { textChars: 5_000, scriptChars: 200_000, urls: 500, selectors: [...MARKER_SELECTORS] };

export interface MainResponse {
  /** The last document response of the main frame, or the navigation's own when none followed. */
  latest(fallback: Response | null): Response | null;
  /** The main frame's first document response, waited for at most `ms` when there is none yet. */
  first(ms: number): Promise<Response | null>;
}

export function trackMainResponse(page: Page): MainResponse {
  let last: Response | null = null;
  let seen: (r: Response) => void = () => undefined;
  const firstSeen = new Promise<Response>((resolve) => (seen = resolve));
  page.on('response', (r) => {
    const req = r.request();
    if (req.isNavigationRequest() && req.frame() === page.mainFrame() && !(r.status() >= 300 && r.status() < 400)) {
      last = r;
      seen(r);
    }
  });
  return {
    latest: (fallback) => last ?? fallback,
    first: async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([firstSeen, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function fail(wall: Wall, url: string, status: number): never {
  throw new TargetNotASiteError(wall.message, { details: { url, kind: wall.kind, ...(wall.vendor ? { vendor: wall.vendor } : {}), targetStatus: status } });
}

/**
 * After a navigation the browser turned into a download: the document's media type when it is a kind
 * with a name (a PDF, an image, ...); any other download is left to the caller's "file download".
 * The response's event may come a moment after the navigation's failure: waited for up to 500 ms.
 */
export async function checkDownloadedType(main: MainResponse): Promise<void> {
  const response = await main.first(500);
  if (response && mediaTypeName(response.headers()['content-type'])) checkContentType(response);
}

/**
 * Right after navigation: a response that is not HTML is not a site. When it is also an HTTP error
 * (a bare-text 404), the status is what the client can act on, so it names that instead.
 */
export function checkContentType(response: Response | null): void {
  if (!response) return;
  const notPage = notHtml(response.headers()['content-type']);
  if (!notPage) return;
  const status = response.status();
  const wall = (status >= 400 ? httpError({ status, statusText: response.statusText(), url: response.url() }, STATUS_CODES) : null) ?? notPage;
  fail(wall, response.url(), status);
}

/** Runs in the page (sent as source): what the rules need, bounded. */
function pageFacts(limits: typeof LIMITS) {
  const text = (document.body ? document.body.innerText : '').replace(/\s+/g, ' ').trim();
  const skip = new Set(['hidden', 'submit', 'button', 'image', 'reset', 'checkbox', 'radio']);
  const fields = Array.from(document.querySelectorAll('input, textarea, select')).filter((el) => {
    if (skip.has((el.getAttribute('type') ?? '').toLowerCase())) return false;
    return (el as HTMLElement).getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  }).length;
  return {
    title: document.title,
    text: text.slice(0, limits.textChars),
    textLength: text.length,
    links: document.querySelectorAll('a[href]').length,
    fields,
    present: limits.selectors.filter((s) => document.querySelector(s) !== null),
    scripts: Array.from(document.scripts)
      .map((s) => (s.src ? '' : (s.textContent ?? '')))
      .join('\n')
      .slice(0, limits.scriptChars),
    frames: Array.from(document.querySelectorAll('iframe[src]')).map((f) => (f as HTMLIFrameElement).src),
    urls: Array.from(document.querySelectorAll('script[src], link[href], iframe[src], a[href], img[src]'))
      .map((el) => (el as HTMLScriptElement).src || (el as HTMLAnchorElement).href || '')
      .filter(Boolean)
      .slice(0, limits.urls),
  };
}

/** On the settled page: bot challenges, CAPTCHA walls, HTTP error pages, parked domains. */
export async function checkWall(page: Page, response: Response | null, fallbackStatus: number): Promise<void> {
  checkContentType(response);
  const inPage = await page.evaluate(pageFacts, LIMITS);
  const facts: PageFacts = {
    url: response?.url() ?? page.url(),
    status: response?.status() ?? fallbackStatus,
    statusText: response?.statusText() ?? '',
    headers: response?.headers() ?? {},
    ...inPage,
  };
  const wall = detectWall(facts, STATUS_CODES);
  if (wall) fail(wall, facts.url, facts.status);
}
