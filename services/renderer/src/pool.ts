/**
 * One long-lived Chromium per process, handed out to jobs through the limiter. The browser is
 * dropped the moment it disconnects (crash, killed) and relaunched for the next job; after
 * `recyclePages` pages, or once its process tree's PSS is over `pssCapMb`, it is retired: new jobs
 * get a fresh browser, the old one closes once its in-flight pages are done.
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import type { Logger } from 'pino';
import { UnavailableError } from '@enrich/shared/errors';
import { EGRESS_PROXY_HOST } from './egress/proxy.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { treePssMb } from './memory.ts';

/**
 * Memory (README "Memory"): measured with test/bench/renderer-memory.ts at RENDER_CONCURRENCY=4
 * under 8 clients. Each saves memory without touching what a page can reach.
 */
export const MEMORY_ARGS = [
  // No --disable-features here: Playwright passes its own list (PaintHolding, ...) and a second
  // switch would replace it, not add to it.
  '--disable-site-isolation-trials',
  '--mute-audio',
  // V8 heap of each renderer capped: a page that needs more crashes its own tab, not the pod.
  '--js-flags=--max-old-space-size=256',
  // The GPU process (software compositing under --disable-gpu) folded into the browser process.
  '--in-process-gpu',
  // An image whose decoded pixels would take more than this is decoded smaller (JPEG) or not at
  // all: a 20 000 x 20 000 px photo cannot take 1.6 GB. 64 MB is 4000 x 4000 px, beyond any viewport.
  '--max-decoded-image-size-mb=64',
];

export const CHROMIUM_ARGS = [
  '--no-sandbox', // runs as root in a container; isolation comes from the container and fresh contexts
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
  // Exits around the egress proxy, each closed here and tested in exits.test.ts (README "Exits"):
  '--disable-quic', // QUIC (HTTP/3, WebTransport) is UDP, which the proxy does not carry
  // WebRTC: no STUN/TURN/ICE over UDP; TCP goes through the proxy. The full Chromium reads the first
  // switch (its preference), the headless shell only the second (the content layer's override).
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Chromium's own resolver never sends a query: every connection goes through the proxy, which
  // resolves and checks; the proxy itself is reached by its literal address.
  `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${EGRESS_PROXY_HOST}`,
  ...MEMORY_ARGS,
];

/**
 * Chromium features switched off on top of Playwright's own list. The full Chromium's headless mode
 * (CHROMIUM_PATH=/usr/bin/chromium; the default headless shell opens no windows, so they change
 * nothing there) opens a window per browser context, and each window preloads its omnibox popup as
 * a WebUI page in a renderer process of its own (`chrome://omnibox-popup.top-chrome/`): one more
 * renderer per context, about 50 MB PSS and the CPU to start it, for a popup no one opens. With them
 * off, 4 pages run in 4 renderer processes instead of 8 (README "Memory").
 */
export const EXTRA_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

const DISABLE_FEATURES = '--disable-features=';

/** What the browser was launched with: its `--disable-features=` switch, `none`, or null when the command line cannot be read. */
export function disableFeaturesSwitchOf(pid: number): string | 'none' | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.filter((a) => a.startsWith(DISABLE_FEATURES)).at(-1) ?? 'none';
  } catch {
    return null;
  }
}

/**
 * Launch options that switch off EXTRA_DISABLED_FEATURES as well, given the switch Playwright
 * launched a browser with: one `--disable-features` carrying its list and ours, and its own switch
 * left out (Chromium reads only the last such switch, so a second one would drop Playwright's list:
 * PaintHolding and the rest). Playwright does not export its list, so it is read from a browser it
 * launched. Null: nothing to add, or the switch is not known (then the defaults stay as they are).
 */
export function featureLaunchOptions(launchedWith: string | 'none' | null): { ignoreDefaultArgs: string[]; args: string[] } | null {
  if (launchedWith === null) return null;
  const have = launchedWith === 'none' ? [] : launchedWith.slice(DISABLE_FEATURES.length).split(',').filter(Boolean);
  const missing = EXTRA_DISABLED_FEATURES.filter((f) => !have.includes(f));
  if (missing.length === 0) return null;
  return { ignoreDefaultArgs: launchedWith === 'none' ? [] : [launchedWith], args: [`${DISABLE_FEATURES}${[...have, ...missing].join(',')}`] };
}

export interface PoolOptions {
  chromiumPath: string;
  concurrency: number;
  queue: number;
  recyclePages: number;
  /** Retire the browser when its process tree's PSS exceeds this many MB (0: never); read at most once a second (retireReason). */
  pssCapMb?: number;
  log: Logger;
  /** Injectable for tests. */
  launch?: () => Promise<Browser>;
}

export interface Slot {
  browser: Browser;
  pagesServed: number;
  inFlight: number;
  retired: boolean;
  /** The browser's main process, when it could be found (the PSS cap needs it). */
  pid?: number;
  pssCheckedAt: number;
  /** The last PSS read, in MB (0 before the first). */
  pssMb: number;
}

export interface Lease {
  browser: Browser;
  release(): void;
}

export interface BrowserPool {
  /** A browser for one page: waits in the limiter queue (BUSY beyond it), then launches if needed. */
  lease(signal?: AbortSignal): Promise<Lease>;
  stats(): { browsers: number; contexts: number; busy: number; queued: number; capacity: number };
  /**
   * The browser the next page would get, when no page waits and at most `rendering` are being rendered
   * (0: the renderer is idle; 1: a job asking about itself is the only one); else null.
   */
  idleBrowser(rendering?: number): Browser | null;
  /** Launches the browser ahead of the first request. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/** The browser's main process id, as Chromium reports it over CDP (undefined when it names none). */
export async function browserPidOf(browser: Browser): Promise<number | undefined> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
    return info.processInfo.find((p) => p.type === 'browser')?.id;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * When the browser's main process dies (OOM killer, kill -9), its zygote and renderer children can
 * keep Playwright's pipe open, so `disconnected` never fires and pending calls hang. The browser leads
 * its own process group: once the leader is gone, kill the group so the pipe closes and everything
 * waiting on the browser fails at once.
 */
async function watchBrowserProcess(browser: Browser, log: Logger): Promise<number | undefined> {
  let pid: number | undefined;
  try {
    pid = await browserPidOf(browser);
  } catch (err) {
    log.warn({ err }, 'cannot find the browser pid; a killed browser is noticed only when its pipe closes');
  }
  if (!pid) return undefined;
  const browserPid = pid;
  const timer = setInterval(() => {
    try {
      process.kill(browserPid, 0);
    } catch {
      clearInterval(timer);
      log.warn({ pid: browserPid }, 'browser process died; killing its process group');
      try {
        process.kill(-browserPid, 'SIGKILL');
      } catch {
        /* group already gone */
      }
    }
  }, 250);
  timer.unref();
  browser.once('disconnected', () => clearInterval(timer));
  return browserPid;
}

/**
 * How often the PSS is read: every second once the last reading is past PSS_NEAR_CAP of the cap,
 * else every five. Reading it is no light thing: the kernel walks the page tables of every Chromium
 * process for smaps_rollup, 4-9 ms of this process's CPU, synchronously, per reading (a --cpu-prof
 * of the renderer under /enrich at concurrency 1, 2026-11-27: 4.5 % of its CPU, the most of any of
 * its own functions; with the five seconds only under half the cap, still 2.6 ms a /screenshot, the
 * tree sitting at 60-70 % of the cap). A browser under 85 % of its cap that crosses it within the
 * five seconds is retired that much later; the cap is a bound on slow growth, a single page's
 * memory is bounded by the per-page V8 and image limits (MEMORY_ARGS).
 */
const PSS_NEAR_CAP = 0.85;
const PSS_CHECK_EVERY_MS = 1_000;
const PSS_CHECK_WITH_HEADROOM_MS = 5_000;

/** Why `slot` should be retired now, if it should: pages served, or its PSS over the cap. */
export function retireReason(slot: Slot, opts: Pick<PoolOptions, 'recyclePages' | 'pssCapMb'>): Record<string, number> | null {
  if (slot.pagesServed >= opts.recyclePages) return { pagesServed: slot.pagesServed };
  if (!opts.pssCapMb || !slot.pid) return null;
  const every = slot.pssMb < PSS_NEAR_CAP * opts.pssCapMb ? PSS_CHECK_WITH_HEADROOM_MS : PSS_CHECK_EVERY_MS;
  if (Date.now() - slot.pssCheckedAt < every) return null;
  slot.pssCheckedAt = Date.now();
  const pssMb = treePssMb(slot.pid);
  slot.pssMb = pssMb ?? 0;
  return pssMb !== null && pssMb > opts.pssCapMb ? { pssMb, capMb: opts.pssCapMb, pagesServed: slot.pagesServed } : null;
}

/** One page's lease on `slot`: release gives the limiter's place back and closes a retired browser once idle. */
function leaseOn(slot: Slot, free: () => void, closeSlot: (slot: Slot) => Promise<void>): Lease {
  let released = false;
  return {
    browser: slot.browser,
    release() {
      if (released) return;
      released = true;
      slot.inFlight--;
      free();
      if (slot.retired && slot.inFlight === 0) void closeSlot(slot);
    },
  };
}

/**
 * Launches browsers and watches their processes. Without an injected `launch`, the first browser
 * (Playwright's defaults) tells which `--disable-features` Playwright passes and is relaunched once
 * with EXTRA_DISABLED_FEATURES merged in (featureLaunchOptions); every later launch uses that.
 * Once in a while Chromium dies while it starts (a SIGSEGV before the DevTools pipe answers: it
 * ended a bench run on 2026-11-27, the full browser, and a renderer's start in an e2e test on
 * 2026-11-28, the headless shell): a failed launch is tried once more, logged, before it fails.
 */
function browserLauncher(opts: PoolOptions): () => Promise<{ browser: Browser; pid: number | undefined }> {
  let features: ReturnType<typeof featureLaunchOptions> | undefined;
  const launchOnce =
    opts.launch ??
    (() =>
      chromium.launch({
        executablePath: opts.chromiumPath,
        args: [...CHROMIUM_ARGS, ...(features?.args ?? [])],
        ...(features ? { ignoreDefaultArgs: features.ignoreDefaultArgs } : {}),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      }));
  const launch = async (): Promise<Browser> => {
    try {
      return await launchOnce();
    } catch (err) {
      opts.log.warn({ err }, 'Chromium failed to start; trying once more');
      return launchOnce();
    }
  };
  return async () => {
    let browser = await launch();
    let pid = await watchBrowserProcess(browser, opts.log);
    if (!opts.launch && features === undefined) {
      features = pid ? featureLaunchOptions(disableFeaturesSwitchOf(pid)) : null;
      if (!features) {
        opts.log.info({ pid }, 'Chromium features: launched with the defaults (the extra disabled features are in, or the command line could not be read)');
      } else {
        await browser.close().catch(() => undefined);
        browser = await launch();
        pid = await watchBrowserProcess(browser, opts.log);
      }
    }
    return { browser, pid };
  };
}

export function createBrowserPool(opts: PoolOptions): BrowserPool {
  const limiter: Limiter = createLimiter({ concurrency: opts.concurrency, queue: opts.queue });
  const slots = new Set<Slot>();
  let current: Slot | null = null;
  let launching: Promise<Slot> | null = null;
  let closed = false;

  const launchWatched = browserLauncher(opts);

  async function closeSlot(slot: Slot): Promise<void> {
    slots.delete(slot);
    await slot.browser.close().catch(() => undefined);
  }

  async function currentSlot(): Promise<Slot> {
    if (current && current.browser.isConnected()) return current;
    if (!launching) {
      launching = (async () => {
        const started = Date.now();
        const { browser, pid } = await launchWatched();
        const slot: Slot = { browser, pagesServed: 0, inFlight: 0, retired: false, pssCheckedAt: 0, pssMb: 0, ...(pid ? { pid } : {}) };
        browser.once('disconnected', () => {
          slots.delete(slot);
          if (current === slot) current = null;
          if (!slot.retired && !closed) opts.log.warn({ inFlight: slot.inFlight }, 'browser disconnected; the next page gets a fresh one');
        });
        slots.add(slot);
        current = slot;
        opts.log.info({ ms: Date.now() - started, version: browser.version() }, 'browser launched');
        return slot;
      })().finally(() => {
        launching = null;
      });
    }
    return launching;
  }

  return {
    async lease(signal) {
      if (closed) throw new UnavailableError('renderer is shutting down');
      const free = await limiter.acquire(signal);
      let slot: Slot;
      try {
        slot = await currentSlot();
      } catch (err) {
        free();
        throw new UnavailableError(`cannot start the browser: ${(err as Error).message}`, { cause: err });
      }
      slot.inFlight++;
      slot.pagesServed++;
      const reason = current === slot ? retireReason(slot, opts) : null;
      if (reason) {
        slot.retired = true;
        current = null;
        opts.log.info(reason, 'browser retired for recycling');
      }
      return leaseOn(slot, free, closeSlot);
    },
    stats() {
      let contexts = 0;
      for (const s of slots) if (s.browser.isConnected()) contexts += s.browser.contexts().length;
      return { browsers: slots.size, contexts, busy: limiter.active(), queued: limiter.queued(), capacity: opts.concurrency };
    },
    idleBrowser(rendering = 0) {
      if (closed || !current || !current.browser.isConnected()) return null;
      return limiter.queued() === 0 && limiter.active() <= rendering ? current.browser : null;
    },
    async warm() {
      await currentSlot();
    },
    async close() {
      closed = true;
      await launching?.catch(() => undefined);
      await Promise.all([...slots].map(closeSlot));
      current = null;
    },
  };
}
