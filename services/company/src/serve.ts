/** `analyze.company` on NATS: the snapshots read where they came by reference, then analyzeCompany. */
import { ANALYZE_COMPANY } from '@enrich/shared/contracts';
import { serve, withSnapshots, type NatsConnection, type Served } from '@enrich/shared/nats';
import type { Logger } from '@enrich/shared/runtime';
import { analyzeCompany } from './analyze.ts';

export function serveCompany(nc: NatsConnection, log: Logger): Served {
  return serve(nc, ANALYZE_COMPANY, async (m) => analyzeCompany(await withSnapshots(nc, m)), { log });
}
