/**
 * Integration (real Chromium): the spare page (spare.ts). Opened only when the renderer is idle,
 * taken by the next job at the same viewport, refusing everything until a job holds it, and never
 * a way for one job's state to reach the next.
 */
import type { Span } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTelemetry } from '@enrich/shared/telemetry';
import { startFixtureSites, type FixtureSites } from '../../../test/support/fixture-sites.ts';
import { renderRequest, startTestRenderer, testLog } from '../../../test/support/renderer-harness.ts';
import { createGuardSwitch, createEgressGuard } from './egress/guard.ts';
import { parseAllowList, resolveAll } from './ssrf.ts';
import { createSparePages } from './spare.ts';

const telemetry = startTestTelemetry('spare-test');
let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
});
afterAll(async () => {
  await sites?.close();
  await telemetry.shutdown();
});

/** The `spare` attribute of each `render.context` span finished since the last call. */
async function contextSpans(): Promise<boolean[]> {
  await telemetry.forceFlush();
  const spans = telemetry.exporter.getFinishedSpans().filter((s) => s.name === 'render.context');
  telemetry.exporter.reset();
  return spans.map((s) => (s as unknown as Span & { attributes: Record<string, unknown> }).attributes.spare === true);
}

const until = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const stop = Date.now() + ms;
  while (!check() && Date.now() < stop) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

// BROWSER_PSS_CAP_MB=0: a browser retired for its memory (the cap is low at small concurrency) gets no
// spare, which would make these tests depend on the machine.
describe('the spare page', () => {
  it('is opened once a job ends on an idle renderer and taken by the next job at the same viewport', async () => {
    const r = startTestRenderer({ RENDER_CONCURRENCY: '2', BROWSER_PSS_CAP_MB: '0' });
    try {
      await r.renderer.pool.warm();
      await contextSpans();
      expect(r.renderer.spares.held()).toBe(false);
      const first = await r.render(renderRequest(`${sites.origin}/remember`));
      expect(first.snapshot!.title).toBe('cookie:none storage:none');
      // The first job's context closes, then the spare opens: one context, not yet anyone's.
      await until(() => r.renderer.spares.held() && r.renderer.pool.stats().contexts === 1 && r.renderer.pool.stats().busy === 0);
      const second = await r.render(renderRequest(`${sites.origin}/remember`));
      // Fresh all the same: the first job's cookie and storage do not reach it.
      expect(second.snapshot!.title).toBe('cookie:none storage:none');
      // Another viewport does not take it: that job opens its own, and the spare is closed.
      await until(() => r.renderer.spares.held());
      const wide = await r.render(renderRequest(`${sites.origin}/`, { viewport: { width: 1600, height: 900 } }));
      expect(wide.snapshot!.viewport).toEqual({ width: 1600, height: 900 });
      expect(await contextSpans()).toEqual([false, true, false]);
      await until(() => r.renderer.spares.held() && r.renderer.pool.stats().contexts === 1);
      await r.renderer.spares.close();
      expect(r.renderer.pool.stats().contexts).toBe(0);
    } finally {
      await r.renderer.close();
    }
  });

  it('is not opened while another job runs or waits', async () => {
    const r = startTestRenderer({ RENDER_CONCURRENCY: '2', RENDER_QUEUE: '4', BROWSER_PSS_CAP_MB: '0' });
    try {
      await r.renderer.pool.warm();
      const job = (ms: number) => r.render(renderRequest(`${sites.origin}/slow?ms=${ms}`, { snapshot: false, screenshot: null }));
      // A short job ends while a long one runs: no spare beside the long one. The long one runs long
      // enough to outlast the short one on a loaded machine (with 2.5 s, the whole suite's load once
      // let it end before the check, and the check saw no context at all).
      const long = job(6_000);
      await job(200);
      await until(() => r.renderer.pool.stats().busy === 1);
      await new Promise((res) => setTimeout(res, 600)); // a spare would be open by now
      expect(r.renderer.pool.stats().contexts).toBe(1);
      expect(r.renderer.spares.held()).toBe(false);
      await long;
      await until(() => r.renderer.spares.held()); // and once none runs, it is
    } finally {
      await r.renderer.close();
    }
  });

  it('is opened while a job settles when jobs come back to back, and taken by the next', async () => {
    const r = startTestRenderer({ RENDER_CONCURRENCY: '2', BROWSER_PSS_CAP_MB: '0' });
    try {
      await r.renderer.pool.warm();
      await contextSpans();
      // Whether a spare was held while a job ran: in at least three samples 5 ms apart (a spare left by the
      // job before is held only until the running job takes it, the one opened ahead while this job settles).
      const watch = (job: Promise<unknown>): Promise<boolean> => {
        let seen = 0;
        const timer = setInterval(() => {
          if (r.renderer.spares.held() && r.renderer.pool.stats().busy > 0) seen++;
        }, 5);
        return job.then(
          () => (clearInterval(timer), seen >= 3),
          (err: unknown) => (clearInterval(timer), Promise.reject(err)),
        );
      };
      // /spa/ fetches its products 300 ms after it loads, so each job settles for that long.
      const spa = () => r.render(renderRequest(`${sites.origin}/spa/`, { snapshot: false }));
      // The first job follows no other: nothing is opened beside it.
      expect(await watch(spa())).toBe(false);
      // The next one, sent the moment the first answered, has the job after it opened while it settles.
      expect(await watch(spa())).toBe(true);
      expect(r.renderer.pool.stats().contexts).toBeLessThanOrEqual(3);
      await spa();
      const spare = await contextSpans();
      expect(spare[0]).toBe(false);
      expect(spare[2]).toBe(true);
    } finally {
      await r.renderer.close();
    }
  });

  it('is never opened with RENDER_SPARE_PAGE=false', async () => {
    const r = startTestRenderer({ RENDER_SPARE_PAGE: 'false', BROWSER_PSS_CAP_MB: '0' });
    try {
      await r.renderer.pool.warm();
      await contextSpans();
      for (let i = 0; i < 2; i++) await r.render(renderRequest(`${sites.origin}/`, { snapshot: false, screenshot: null }));
      await until(() => r.renderer.pool.stats().busy === 0 && r.renderer.pool.stats().contexts === 0);
      expect(r.renderer.spares.held()).toBe(false);
      expect(await contextSpans()).toEqual([false, false]);
    } finally {
      await r.renderer.close();
    }
  });

  it("refuses every request until a job's guard is bound, then asks that guard", async () => {
    const sw = createGuardSwitch();
    expect(await sw.check(`${sites.origin}/`)).toMatchObject({ ok: false, kind: 'forbidden' });
    const job = createEgressGuard({ resolve: resolveAll, allow: parseAllowList('127.0.0.2/32') });
    sw.bind(job);
    expect(await sw.check(`${sites.origin}/`)).toMatchObject({ ok: true });
    expect(await sw.check(`${sites.forbiddenOrigin}/`)).toMatchObject({ ok: false, kind: 'forbidden' });
    sw.refuse({ url: `${sites.forbiddenOrigin}/`, kind: 'forbidden', reason: 'test', netError: 'net::ERR_BLOCKED_BY_CLIENT' });
    expect(job.refusals()).toHaveLength(1);
  });

  it('is closed, proxy and all, when the renderer closes, and nothing opens after', async () => {
    const r = startTestRenderer({ BROWSER_PSS_CAP_MB: '0' }); // a retired browser gets no spare
    await r.renderer.pool.warm();
    await r.render(renderRequest(`${sites.origin}/`, { snapshot: false, screenshot: null }));
    await until(() => r.renderer.spares.held() && r.renderer.pool.stats().contexts === 1);
    await r.renderer.close();
    expect(r.renderer.spares.held()).toBe(false);
    const spares = createSparePages(testLog);
    await spares.close();
    expect(spares.held()).toBe(false);
  });
});
