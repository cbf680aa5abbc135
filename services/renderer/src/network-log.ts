/**
 * What the page requested, as seen on the wire: the resource list for the snapshot, and the texts of
 * stylesheets (and scripts when asked) read from the responses, so cross-origin sheets that the page
 * cannot read through the CSSOM are still available.
 */
import type { Page, Request, Response } from 'playwright-core';
import type { Resource } from '@enrich/shared/contracts';

export interface NetworkLog {
  resources(): { list: Resource[]; truncated: boolean };
  /** Body texts by URL, for the resource types asked for; waits at most until `until` for pending reads. */
  texts(until: number): Promise<Map<string, string>>;
  /** URLs of captured texts in response order (sheets pulled in by @import are not in the DOM list). */
  textOrder(): string[];
  /** The answer an image was drawn from, by the URL the page asked for (a redirect's first URL too) or its final URL. */
  imageResponse(url: string): Response | undefined;
}

/** Image answers kept for `imageResponse` (a logo's bytes are read from its answer, logos.ts). */
const MAX_IMAGE_RESPONSES = 1_000;

export function recordNetwork(page: Page, opts: { textTypes: Set<string>; maxResources: number; maxTextChars: number; maxTotalChars: number }): NetworkLog {
  const list: Resource[] = [];
  const byRequest = new Map<Request, Resource>();
  let dropped = false;
  const reads = new Map<string, Promise<string | null>>();
  // Each resource type (stylesheet, script) has its own total budget.
  const budgets = new Map<string, number>();

  page.on('request', (req) => {
    const url = req.url();
    if (!/^https?:/.test(url)) return;
    if (list.length >= opts.maxResources) {
      dropped = true;
      return;
    }
    const entry: Resource = { url: url.slice(0, 8192), type: req.resourceType(), status: null };
    list.push(entry);
    byRequest.set(req, entry);
  });
  const images = new Map<string, Response>();
  page.on('response', (res: Response) => {
    const req = res.request();
    const entry = byRequest.get(req);
    if (entry) entry.status = res.status();
    if (req.resourceType() === 'image' && res.status() < 300 && images.size < MAX_IMAGE_RESPONSES) {
      images.set(res.url(), res);
      let first = req;
      for (let from = first.redirectedFrom(); from; from = from.redirectedFrom()) first = from;
      images.set(first.url(), res);
    }
    if (!opts.textTypes.has(req.resourceType()) || res.status() >= 400 || reads.has(res.url())) return;
    const declared = Number(res.headers()['content-length'] ?? 0);
    if (declared > opts.maxTextChars * 4) return; // too big to keep; skip rather than buffer it
    const type = req.resourceType();
    reads.set(
      res.url(),
      res.text().then(
        (t) => {
          const left = budgets.get(type) ?? opts.maxTotalChars;
          if (left <= 0) return null;
          const text = t.slice(0, Math.min(opts.maxTextChars, left));
          budgets.set(type, left - text.length);
          return text;
        },
        () => null,
      ),
    );
  });

  return {
    resources: () => ({ list: [...list], truncated: dropped }),
    async texts(until) {
      const out = new Map<string, string>();
      const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), Math.max(0, until - Date.now())));
      await Promise.all(
        [...reads].map(async ([url, p]) => {
          const text = await Promise.race([p, timeout]);
          if (typeof text === 'string') out.set(url, text);
        }),
      );
      return out;
    },
    textOrder: () => [...reads.keys()],
    imageResponse: (url) => images.get(url),
  };
}
