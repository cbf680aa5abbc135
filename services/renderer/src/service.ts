/**
 * Builds the renderer from its parts and serves `render.page`. Tests and the end-to-end suite start it
 * in-process; `main.ts` only wires it to the runtime.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { RENDER_PAGE } from '@enrich/shared/contracts';
import { earlyHandOut, serve, storedByRef } from '@enrich/shared/nats';
import { browserPssCapMb, testSwitchesSet, type RendererConfig } from './config.ts';
import { createRendererMetrics } from './metrics.ts';
import { createBrowserPool, type BrowserPool, type PoolOptions } from './pool.ts';
import { renderPage, type JobContext } from './render.ts';
import { createSparePages, type SparePages } from './spare.ts';
import { parseAllowList, parseResolveOverrides, resolveAll, withResolveOverrides, type Resolve } from './ssrf.ts';
import { createScreenshotStore, type ScreenshotStore } from './storage/index.ts';
import type { RenderRequest, RenderResult } from '@enrich/shared/contracts';

export interface Renderer {
  render(req: RenderRequest, job: JobContext): Promise<RenderResult>;
  pool: BrowserPool;
  spares: SparePages;
  close(): Promise<void>;
}

/** The renderer without NATS: a pool, a store and the render function. */
export function createRenderer(opts: {
  config: RendererConfig;
  log: Logger;
  store?: ScreenshotStore;
  resolve?: Resolve;
  launch?: PoolOptions['launch'];
}): Renderer {
  const { config, log } = opts;
  const pool = createBrowserPool({
    chromiumPath: config.CHROMIUM_PATH,
    concurrency: config.RENDER_CONCURRENCY,
    queue: config.RENDER_QUEUE,
    recyclePages: config.BROWSER_RECYCLE_PAGES,
    pssCapMb: browserPssCapMb(config),
    log,
    ...(opts.launch ? { launch: opts.launch } : {}),
  });
  const store = opts.store ?? createScreenshotStore(config);
  const spares = createSparePages(log, config.RENDER_SPARE_PAGE);
  const deps = {
    pool,
    spares,
    store,
    allow: parseAllowList(config.ALLOW_PRIVATE_TARGETS),
    resolve: opts.resolve ?? withResolveOverrides(parseResolveOverrides(config.RESOLVE_OVERRIDES), resolveAll),
    screenshotMaxPixels: config.SCREENSHOT_MAX_PIXELS,
    metrics: createRendererMetrics(() => pool.stats()),
    log,
  };
  return {
    render: (req, job) => renderPage(deps, req, job),
    pool,
    spares,
    async close() {
      await spares.close();
      await pool.close();
      await store.close();
    },
  };
}

export async function startRenderer({
  nc,
  config,
  log,
}: {
  nc: NatsConnection;
  config: RendererConfig;
  log: Logger;
}): Promise<{ stop(): Promise<void>; renderer: Renderer }> {
  for (const [name, value] of testSwitchesSet(config)) {
    log.warn({ switch: name, value }, `TEST SWITCH ${name}=${value} is set: the SSRF guard is opened for tests; refused when NODE_ENV=production`);
  }
  const renderer = createRenderer({ config, log });
  await renderer.pool.warm();
  const served = serve(
    nc,
    RENDER_PAGE,
    async (req, ctx) => {
      const job = { deadline: ctx.deadline, signal: ctx.signal, log: ctx.log };
      const early = earlyHandOut(nc, req, ctx.log);
      if (!early) return storedByRef(nc, req, await renderer.render(req, job), ctx.log);
      return early.reply(
        await renderer.render(req, { ...job, onPagePart: (part) => early.pagePart(part), onVisuals: (part, visuals) => early.visuals(part, visuals) }),
      );
    },
    { log },
  );
  log.info({ concurrency: config.RENDER_CONCURRENCY, queue: config.RENDER_QUEUE }, 'renderer serving render.page');
  return {
    renderer,
    async stop() {
      await served.stop();
      await renderer.close();
    },
  };
}
