/**
 * The edge process: wires the store, the sweeper and the HTTP app to the runtime's common main
 * (config, telemetry, NATS, graceful shutdown on SIGTERM/SIGINT), and listens. Nothing else.
 */
import { ConfigError, runService } from '@enrich/shared/runtime';
import { buildApp } from './app.ts';
import { EdgeEnvSchema, loadEdgeConfig, resolveEdgeConfig } from './config.ts';
import { startReservationSweeper } from './credits/credits.ts';
import { edgeMetrics } from './metrics.ts';
import { guardStore } from './store/guard.ts';
import { openStore } from './store/open.ts';
import { openResultCache } from './cache/cache.ts';

// Rules between variables (RESERVATION_TTL_MS >= REQUEST_BUDGET_MS, STORE=mongo needs MONGODB_URI) are
// checked here, before anything starts, with the same exit code as a bad single value.
try {
  loadEdgeConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`edge: ${err.message}\n`);
  process.exit(78); // EX_CONFIG
}

await runService({
  name: 'edge',
  config: EdgeEnvSchema,
  async start({ config: env, nc, log }) {
    const config = resolveEdgeConfig(env);
    const raw = await openStore(config, nc);
    await raw.init();
    const store = guardStore(raw);
    // At start and then periodically: reservations left open by a crashed instance are refunded.
    const stopSweeper = startReservationSweeper(store, {
      intervalMs: config.sweepIntervalMs,
      onSwept: (refunded, credits) => {
        edgeMetrics().creditsRefunded.add(credits, { reason: 'expired' });
        log.warn({ refunded, credits }, 'refunded expired credit reservations');
      },
      onError: (err) => log.error({ err }, 'reservation sweep failed'),
    });
    const cache = await openResultCache(config, nc, log);
    await cache?.init();
    const app = await buildApp({ config, nc, store, log, cache });
    const address = await app.listen({ port: config.port, host: config.host });
    log.info({ address, store: config.store.kind, budgetMs: config.requestBudgetMs }, `edge listening on ${address}`);
    return {
      async stop() {
        stopSweeper();
        await app.close(); // stops intake, waits for in-flight requests
        await raw.close();
        await cache?.close();
      },
    };
  },
});
