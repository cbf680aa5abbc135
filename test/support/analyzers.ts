/** The three real analyzers served in this process, exactly as their main.ts serves them. */
import type { NatsConnection } from '@enrich/shared/nats';
import type { Logger } from '@enrich/shared/runtime';
import { serveBrand } from '../../services/brand/src/serve.ts';
import { serveCompany } from '../../services/company/src/serve.ts';
import { startClassifier } from '../../services/classifier/src/service.ts';
import { loadClassifierConfig } from '../../services/classifier/src/config.ts';

export async function startAnalyzers(nc: NatsConnection, log: Logger): Promise<{ stop(): Promise<void> }> {
  const served = [serveBrand(nc, log), serveCompany(nc, log), await startClassifier({ nc, config: loadClassifierConfig({}), log })];
  return { stop: async () => void (await Promise.all(served.map((s) => s.stop()))) };
}
