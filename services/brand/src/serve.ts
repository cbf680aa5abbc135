/** `analyze.brand` on NATS: the snapshot read where it came by reference, then analyzeBrand. */
import { ANALYZE_BRAND } from '@enrich/shared/contracts';
import { serve, withSnapshots, type NatsConnection, type Served } from '@enrich/shared/nats';
import type { Logger } from '@enrich/shared/runtime';
import { analyzeBrand } from './analyze.ts';

export function serveBrand(nc: NatsConnection, log: Logger): Served {
  return serve(nc, ANALYZE_BRAND, async (m) => analyzeBrand(await withSnapshots(nc, m)), { log });
}
