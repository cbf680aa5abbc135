/** Integration: the browser pool under load, crashes and recycling, with real Chromium. */
import { readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusyError, UnavailableError } from '@enrich/shared/errors';
import { chromiumChildPids } from '../../../test/support/chromium-pids.ts';
import { startFixtureSites, type FixtureSites } from '../../../test/support/fixture-sites.ts';
import { renderRequest, startTestRenderer, testConfig } from '../../../test/support/renderer-harness.ts';
import { CHROMIUM_ARGS, EXTRA_DISABLED_FEATURES, browserPidOf, disableFeaturesSwitchOf, featureLaunchOptions, retireReason, type Slot } from './pool.ts';

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
});
afterAll(async () => {
  await sites?.close();
});

const outcome = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof BusyError ? 'busy' : `error: ${(e as Error).message}`),
  );

describe('bounded concurrency and queue', () => {
  it('queues beyond the pool, refuses BUSY beyond the queue, never holds more contexts than configured (and one spare)', async () => {
    const r = startTestRenderer({ RENDER_CONCURRENCY: '2', RENDER_QUEUE: '1' });
    try {
      await r.renderer.pool.warm();
      let maxContexts = 0;
      let maxBusy = 0;
      const sampler = setInterval(() => {
        const s = r.renderer.pool.stats();
        maxContexts = Math.max(maxContexts, s.contexts);
        maxBusy = Math.max(maxBusy, s.busy);
      }, 10);
      const runs = Array.from({ length: 5 }, () => outcome(r.render(renderRequest(`${sites.origin}/slow?ms=800`, { snapshot: false, screenshot: null }))));
      const results = await Promise.all(runs);
      clearInterval(sampler);
      expect(results.sort()).toEqual(['busy', 'busy', 'ok', 'ok', 'ok']);
      expect(maxContexts).toBeLessThanOrEqual(2 + 1); // the concurrency, and the spare page once idle (spare.ts)
      expect(maxBusy).toBe(2);
      // Replies go out before cleanup; a slot is free once its context is really closed.
      const until = Date.now() + 10_000;
      while (r.renderer.pool.stats().busy > 0 && Date.now() < until) await new Promise((res) => setTimeout(res, 20));
      await r.renderer.spares.close();
      expect(r.renderer.pool.stats()).toMatchObject({ busy: 0, queued: 0, contexts: 0 });
    } finally {
      await r.renderer.close();
    }
  });
});

describe('browser lifecycle', () => {
  it('fails the request in flight when Chromium is killed, and serves the next one on a fresh browser', async () => {
    const r = startTestRenderer();
    try {
      await r.renderer.pool.warm();
      const [pid] = chromiumChildPids();
      expect(pid).toBeGreaterThan(0);
      const doomed = r.render(renderRequest(`${sites.origin}/slow?ms=3000`)).catch((e: unknown) => e);
      await new Promise((res) => setTimeout(res, 500));
      process.kill(pid!, 'SIGKILL');
      const err = await doomed;
      expect(err).toBeInstanceOf(UnavailableError);
      expect((err as UnavailableError).retryable).toBe(true);
      const next = await r.render(renderRequest(`${sites.origin}/`));
      expect(next.snapshot!.title).toBe('Acme Roasters | Coffee from Bristol');
      expect(chromiumChildPids()).not.toContain(pid);
    } finally {
      await r.renderer.close();
    }
  });

  it('recycles the browser after BROWSER_RECYCLE_PAGES without failing pages in flight', async () => {
    const r = startTestRenderer({ BROWSER_RECYCLE_PAGES: '2' });
    try {
      await r.renderer.pool.warm();
      const first = chromiumChildPids();
      const slow = (): Promise<unknown> => r.render(renderRequest(`${sites.origin}/slow?ms=600`, { snapshot: false }));
      // Both pages start on the first browser; the second retires it while the first is still loading.
      const results = await Promise.all([slow(), slow()]);
      expect(results).toHaveLength(2);
      await r.render(renderRequest(`${sites.origin}/`, { snapshot: false }));
      const now = chromiumChildPids();
      expect(now).toHaveLength(1);
      expect(now).not.toEqual(first);
    } finally {
      await r.renderer.close();
    }
  });

  it('tries a launch that fails once more, and fails when the second try fails too', async () => {
    let launches = 0;
    const failing = (times: number) => (): Promise<Browser> => {
      launches++;
      if (launches <= times) return Promise.reject(new Error('browserType.launch: Target page, context or browser has been closed'));
      return chromium.launch({ executablePath: testConfig().CHROMIUM_PATH, args: CHROMIUM_ARGS });
    };
    const once = startTestRenderer({}, undefined, failing(1));
    try {
      await once.renderer.pool.warm();
      expect(launches).toBe(2);
      const result = await once.render(renderRequest(`${sites.origin}/`, { snapshot: false, screenshot: { format: 'jpeg', fullPage: false } }));
      expect(result.screenshot?.format).toBe('jpeg');
    } finally {
      await once.renderer.close();
    }
    launches = 0;
    const twice = startTestRenderer({}, undefined, failing(2));
    try {
      await expect(twice.renderer.pool.warm()).rejects.toThrow(/has been closed/);
      expect(launches).toBe(2);
    } finally {
      await twice.renderer.close();
    }
  });

  it('retires a browser whose process tree is over BROWSER_PSS_CAP_MB, and its pages still render', async () => {
    // A 1 MB cap: every live browser is over it, so each lease retires the browser it runs on and
    // the next lease launches a fresh one: the warm browser, then one for the second page.
    let launches = 0;
    const launch = (): Promise<Browser> => {
      launches++;
      return chromium.launch({ executablePath: testConfig().CHROMIUM_PATH, args: CHROMIUM_ARGS });
    };
    const r = startTestRenderer({ BROWSER_PSS_CAP_MB: '1' }, undefined, launch);
    try {
      await r.renderer.pool.warm();
      for (let i = 0; i < 2; i++) {
        const result = await r.render(renderRequest(`${sites.origin}/`, { snapshot: false, screenshot: { format: 'jpeg', fullPage: false } }));
        expect(result.screenshot?.format).toBe('jpeg');
      }
      expect(launches).toBe(2);
    } finally {
      await r.renderer.close();
    }
  });
});

async function browserPid(browser: Browser): Promise<number> {
  const pid = await browserPidOf(browser);
  if (!pid) throw new Error('Chromium named no browser process');
  return pid;
}

describe('Chromium features', () => {
  it("launches without the omnibox popup's WebUI renderer, in one --disable-features switch that keeps Playwright's list", async () => {
    const plain = await chromium.launch({ executablePath: testConfig().CHROMIUM_PATH, args: ['--no-sandbox'] });
    const playwrights = disableFeaturesSwitchOf(await browserPid(plain));
    await plain.close();
    expect(playwrights).toMatch(/^--disable-features=.*PaintHolding/);

    const r = startTestRenderer();
    try {
      const lease = await r.renderer.pool.lease();
      try {
        const switches = readFileSync(`/proc/${await browserPid(lease.browser)}/cmdline`, 'utf8')
          .split('\0')
          .filter((a) => a.startsWith('--disable-features='));
        expect(switches).toHaveLength(1);
        const features = switches[0]!.slice('--disable-features='.length).split(',');
        expect(features).toEqual(
          expect.arrayContaining([...(playwrights as string).slice('--disable-features='.length).split(','), ...EXTRA_DISABLED_FEATURES]),
        );
        // A context opens its page's renderer and no top-chrome WebUI beside it.
        const context = await lease.browser.newContext();
        await context.newPage();
        const cdp = await lease.browser.newBrowserCDPSession();
        const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{}] } as never)) as { targetInfos: Array<{ type: string; url: string }> };
        await cdp.detach();
        expect(targetInfos.map((t) => t.url).filter((u) => u.startsWith('chrome://'))).toEqual([]);
        expect(targetInfos.filter((t) => t.type === 'page')).toHaveLength(1);
        await context.close();
      } finally {
        lease.release();
      }
    } finally {
      await r.renderer.close();
    }
  });

  it('merges the extra features into the switch Playwright launched with, and leaves the defaults alone when it cannot read it', () => {
    expect(featureLaunchOptions('--disable-features=A,PaintHolding')).toEqual({
      ignoreDefaultArgs: ['--disable-features=A,PaintHolding'],
      args: [`--disable-features=A,PaintHolding,${EXTRA_DISABLED_FEATURES.join(',')}`],
    });
    expect(featureLaunchOptions(`--disable-features=A,${EXTRA_DISABLED_FEATURES.join(',')}`)).toBeNull();
    expect(featureLaunchOptions('none')).toEqual({ ignoreDefaultArgs: [], args: [`--disable-features=${EXTRA_DISABLED_FEATURES.join(',')}`] });
    expect(featureLaunchOptions(null)).toBeNull();
  });
});

describe('the PSS cap is read sparingly', () => {
  // This test process's own tree stands in for a browser: its PSS is some tens of MB.
  const slot = (pssMb: number, checkedMsAgo: number): Slot => ({
    browser: {} as Browser,
    pagesServed: 1,
    inFlight: 1,
    retired: false,
    pid: process.pid,
    pssCheckedAt: Date.now() - checkedMsAgo,
    pssMb,
  });
  it('reads it every second once the last reading is past 85 % of the cap, every five seconds below that', () => {
    const opts = { recyclePages: 100, pssCapMb: 100_000 };
    const far = slot(80_000, 2_000);
    expect(retireReason(far, opts)).toBeNull();
    expect(far.pssMb).toBe(80_000); // not read: 2 s since the last reading, under 85 % of the cap
    const near = slot(90_000, 2_000);
    expect(retireReason(near, opts)).toBeNull();
    expect(near.pssMb).toBeGreaterThan(0);
    expect(near.pssMb).toBeLessThan(90_000); // read again: past 85 % of the cap
    const stale = slot(1_000, 6_000);
    retireReason(stale, opts);
    expect(stale.pssMb).not.toBe(1_000);
  });
  it('retires a browser over the cap when it reads it, and by pages served whatever the PSS', () => {
    expect(retireReason(slot(0, 10_000), { recyclePages: 100, pssCapMb: 1 })).toMatchObject({ capMb: 1 });
    expect(retireReason({ ...slot(0, 0), pagesServed: 100 }, { recyclePages: 100, pssCapMb: 1 })).toEqual({ pagesServed: 100 });
  });
});
