/** The three real analyzers served in this process, exactly as their main.ts serves them. */
import { ANALYZE_BRAND, ANALYZE_COMPANY } from '@enrich/shared/contracts';
import { serve, type NatsConnection } from '@enrich/shared/nats';
import type { Logger } from '@enrich/shared/runtime';
import { analyzeBrand } from '../../services/brand/src/analyze.ts';
import { analyzeCompany } from '../../services/company/src/analyze.ts';
import { startClassifier } from '../../services/classifier/src/service.ts';
import { loadClassifierConfig } from '../../services/classifier/src/config.ts';

export async function startAnalyzers(nc: NatsConnection, log: Logger): Promise<{ stop(): Promise<void> }> {
  const served = [
    serve(nc, ANALYZE_BRAND, async (req) => analyzeBrand(req), { log }),
    serve(nc, ANALYZE_COMPANY, async (req) => analyzeCompany(req), { log }),
    await startClassifier({ nc, config: loadClassifierConfig({}), log }),
  ];
  return { stop: async () => void (await Promise.all(served.map((s) => s.stop()))) };
}
