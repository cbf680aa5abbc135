import type { Frame, Page } from 'playwright-core';
import { PAGE_HELPERS_SOURCE, type PageHelpers } from './page-helpers.ts';

/**
 * How a collector's result leaves the page: as one JSON string when the page left Object and Array
 * without a `toJSON` of their own, else as the object itself. A result returned as an object is
 * serialised by the DevTools protocol's by-value path, property by property, and rebuilt by
 * Playwright's own serialiser; `JSON.stringify` there and `JSON.parse` here cost less: over the three
 * collectors of an `/enrich` on the bench pages, 12-14 ms less wall time, 7 ms less browser CPU and
 * 6 ms less Node CPU a page (2026-11-28, headless shell; README "Only what the analyzer reads"). The
 * snapshot travels as JSON afterwards anyway (object store, NATS), so nothing a collector returns
 * changes meaning. A page that gave Object or Array a `toJSON` (Prototype.js did, and its arrays came
 * out as strings) would change what the string says: there the object crosses as before.
 */
const LEAVE_PAGE = `(r) => typeof Object.prototype.toJSON === 'undefined' && typeof Array.prototype.toJSON === 'undefined' ? { json: JSON.stringify(r) } : { value: r }`;

type Crossing<R> = { json: string; value?: undefined } | { json?: undefined; value: R };

/**
 * Runs a collector in the page with the helpers: the collector's source is sent as an expression,
 * so it must not close over anything from this module. `parts` are function declarations the
 * collector calls by name (a collector split into several functions); they are sent with it and
 * must be self-contained in the same way. A frame of the page runs it the same way.
 */
export async function runInPage<A, R>(
  page: Page | Frame,
  collector: (h: PageHelpers, arg: A) => R | Promise<R>,
  arg: A,
  parts: ReadonlyArray<(...args: never[]) => unknown> = [],
): Promise<R> {
  const call = `(${collector.toString()})(${PAGE_HELPERS_SOURCE}, ${JSON.stringify(arg)})`;
  const result = parts.length ? `(() => {\n${parts.map((f) => f.toString()).join('\n')}\nreturn ${call};\n})()` : call;
  const expression = `((leave, r) => (r && typeof r.then === 'function' ? r.then(leave) : leave(r)))(${LEAVE_PAGE}, ${result})`;
  const out = (await page.evaluate(expression)) as Crossing<R>;
  if (out.json === undefined) return out.value as R;
  // A page may have replaced JSON.stringify itself; what it wrote then is not ours to read.
  try {
    return JSON.parse(out.json) as R;
  } catch {
    return (await page.evaluate(result)) as R;
  }
}
