/**
 * The edge's rate limiter under load, without the rest of the stack: a private nats-server, one edge
 * (in this process) on a fresh KV store, a key allowing 1,000,000 requests/min and a per-IP limit of
 * 1,000,000/min, driven by autocannon (its own process, through test/bench/edge-overhead.ts) at fixed
 * rates. The authenticated path is refused with 400 after both windows are hit, so it measures the
 * two rate-limit updates, the key lookup and the usage write, and nothing downstream.
 *
 *   .tools/node/bin/node services/edge/bench/rate-limit.ts [rates=100,300,1000] [seconds=5]
 */
import { measureOverhead, type OverheadPath } from '../../../test/bench/edge-overhead.ts';
import { startNatsServer } from '../../../test/support/nats-server.ts';
import { startEdge } from '../../../test/support/edge-harness.ts';

const rates = (process.argv[2] ?? '100,300,1000').split(',').map(Number);
const seconds = Number(process.argv[3] ?? 5);

const nats = await startNatsServer();
const edge = await startEdge(nats.url, { ipRateLimitPerMin: 1_000_000 });
try {
  const { key } = await edge.createKey({ credits: 1_000_000_000, rateLimit: 1_000_000 });
  const address = await edge.app.listen({ port: 0, host: '127.0.0.1' });
  const paths: OverheadPath[] = [
    { name: 'health', path: '/health', authenticated: false, expectStatus: 200, exercises: 'the floor: no store' },
    {
      name: 'bad-parameter',
      path: '/classify?url=acme.test&colour=red',
      authenticated: true,
      expectStatus: 400,
      exercises: 'per-IP and per-key windows, key lookup, usage write',
    },
  ];
  const steps = await measureOverhead(address, key, paths, rates, { durationS: seconds, log: (l) => console.log(l) });
  console.log(
    JSON.stringify(
      steps.map((s) => ({
        path: s.path,
        offered: s.targetRate,
        achieved: s.achievedRate,
        p50: s.latencyMs.p50,
        p99: s.latencyMs.p99,
        other: s.unexpected,
        errors: s.errors,
      })),
    ),
  );
} finally {
  await edge.close();
  await nats.stop();
}
