/** Phase 5: the screenshot (span `render.screenshot`) and storing it (span `render.store`). */
import type { Page } from 'playwright-core';
import type { RenderRequest, StoredScreenshot } from '@enrich/shared/contracts';
import { CLEANUP_MS, type RenderRun } from '../run.ts';
import { capturePage, type Capture } from '../screenshot.ts';
import { screenshotKey } from '../storage/index.ts';
import { inSpan } from '../tracing.ts';

export async function capture(run: RenderRun, page: Page, shot: NonNullable<RenderRequest['screenshot']>): Promise<Capture> {
  run.stage = 'taking the screenshot';
  const { req, deps, job } = run;
  return inSpan(
    'screenshot',
    () => capturePage(page, { ...shot, viewport: req.viewport, maxPixels: deps.screenshotMaxPixels, timeoutMs: job.deadline - Date.now() - CLEANUP_MS }),
    {
      format: shot.format,
      full_page: shot.fullPage,
    },
  );
}

export async function storeScreenshot(run: RenderRun, captured: Capture, fullPage: boolean): Promise<StoredScreenshot> {
  run.stage = 'storing the screenshot';
  const key = screenshotKey(run.req.requestId, captured.format, captured.capturedAt);
  const url = await inSpan('store', () => run.deps.store.put(key, captured.body, captured.contentType), { bytes: captured.body.length });
  return {
    url,
    format: captured.format,
    width: captured.width,
    height: captured.height,
    fullPage,
    clipped: captured.clipped,
    capturedAt: captured.capturedAt.toISOString(),
    bytes: captured.body.length,
  };
}
