import type { Frame, Page } from 'playwright-core';
import { PAGE_HELPERS_SOURCE, type PageHelpers } from './page-helpers.ts';

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
  const expression = parts.length ? `(() => {\n${parts.map((f) => f.toString()).join('\n')}\nreturn ${call};\n})()` : call;
  return (await page.evaluate(expression)) as R;
}
