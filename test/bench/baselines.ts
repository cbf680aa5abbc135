/**
 * What we compare our screenshot path with, on the same pages, the same Chromium binary and the same
 * launch flags as the renderer (imported from it, so they cannot drift; only the proxy-only resolver
 * rule is left out), the features the renderer's pool switches off included (EXTRA_DISABLED_FEATURES:
 * a plain Playwright launch also starts an omnibox-popup renderer per context: in two bench runs on
 * 2 cores the plain baseline's p50 was 557 ms at concurrency 1 and 1880 ms at 4, with the switch 373
 * and 1072 ms, so the ratio would have measured the popups, not our work):
 * - a bare Playwright loop on one warm browser: new context, goto (until `load`), screenshot, close;
 * - a browser launched per request, as naive screenshot services work.
 * Both capture what the renderer captures by default: a 1440x900 viewport as JPEG quality 80.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, browserPidOf, disableFeaturesSwitchOf, featureLaunchOptions } from '../../services/renderer/src/pool.ts';

export const VIEWPORT = { width: 1440, height: 900 };
const NAV_TIMEOUT_MS = 30_000;

export interface ChromiumOptions {
  executablePath: string;
}

async function shoot(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: NAV_TIMEOUT_MS });
    const jpeg = await page.screenshot({ type: 'jpeg', quality: 80, animations: 'disabled', caret: 'hide' });
    return jpeg.length;
  } finally {
    await context.close();
  }
}

/**
 * The renderer's flags minus the one that only works behind its egress proxy: `--host-resolver-rules`
 * makes every name (and address) unresolvable so that all traffic must take the proxy; a bare
 * browser without the proxy would reach nothing.
 */
export const BASELINE_ARGS = CHROMIUM_ARGS.filter((a) => !a.startsWith('--host-resolver-rules'));

let features: ReturnType<typeof featureLaunchOptions> | undefined;

/** The renderer's launch: BASELINE_ARGS, and Playwright's feature switch merged with the pool's (learned from one plain launch). */
export async function launchChromium(opts: ChromiumOptions): Promise<Browser> {
  if (features === undefined) {
    const plain = await chromium.launch({ executablePath: opts.executablePath, args: BASELINE_ARGS });
    try {
      const pid = await browserPidOf(plain);
      features = pid ? featureLaunchOptions(disableFeaturesSwitchOf(pid)) : null;
    } finally {
      await plain.close();
    }
  }
  const launch = (): Promise<Browser> =>
    chromium.launch({
      executablePath: opts.executablePath,
      args: [...BASELINE_ARGS, ...(features?.args ?? [])],
      ...(features ? { ignoreDefaultArgs: features.ignoreDefaultArgs } : {}),
    });
  // Once in a while Chromium dies while starting (a SIGSEGV at launch ended a bench run 5 minutes
  // in, 2026-11-27): one more try, said on stderr, before the run fails.
  try {
    return await launch();
  } catch (err) {
    process.stderr.write(`bench: Chromium failed to start (${(err as Error).message.split('\n')[0]}); trying once more\n`);
    return launch();
  }
}

/** A warm browser that screenshots one URL per call, each in a fresh context; `pid` is its browser process. */
export async function warmBrowserBaseline(
  opts: ChromiumOptions,
): Promise<{ version: string; pid: number | undefined; screenshot(url: string): Promise<number>; close(): Promise<void> }> {
  const browser = await launchChromium(opts);
  return {
    version: browser.version(),
    // Its process tree, for the CPU a shot costs (undefined when the browser does not say).
    pid: await browserPidOf(browser),
    screenshot: (url) => shoot(browser, url),
    close: () => browser.close(),
  };
}

/** Launch, screenshot, quit: the whole browser lifetime is inside the request. */
export async function screenshotWithFreshBrowser(opts: ChromiumOptions, url: string): Promise<number> {
  const browser = await launchChromium(opts);
  try {
    return await shoot(browser, url);
  } finally {
    await browser.close();
  }
}
