import type { Page } from 'playwright-core';
import { pageHelpers, type PageHelpers } from './page-helpers.ts';

/**
 * Runs a collector in the page with the helpers: the collector's source is sent as an expression,
 * so it must not close over anything from this module.
 */
export async function runInPage<A, R>(page: Page, collector: (h: PageHelpers, arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const expression = `(${collector.toString()})((${pageHelpers.toString()})(), ${JSON.stringify(arg)})`;
  return (await page.evaluate(expression)) as R;
}
