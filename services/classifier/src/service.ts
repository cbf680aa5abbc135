/**
 * Builds the running classifier: loads the sentence encoder and category vectors (once, before
 * serving), wires the optional chat-model provider, and answers `analyze.classify`.
 */
import type { Logger } from 'pino';
import { ANALYZE_CLASSIFY } from '@enrich/shared/contracts';
import { serve, withSnapshots, type NatsConnection } from '@enrich/shared/nats';
import type { Started } from '@enrich/shared/runtime';
import { createClassifier } from './classifier.ts';
import { llmProviderOptions, type ClassifierConfig } from './config.ts';
import { loadEmbeddedClassifier } from './providers/embedded.ts';
import { createOpenAiProvider } from './providers/openai.ts';

export async function startClassifier({
  nc,
  config,
  log,
  instance,
}: {
  nc: NatsConnection;
  config: ClassifierConfig;
  log: Logger;
  instance?: string;
}): Promise<Started> {
  const t0 = performance.now();
  const llm = llmProviderOptions(config);
  // A provider is offered the embedded ranking's best families, so every page is embedded then.
  const embedded = await loadEmbeddedClassifier({ fullRanking: llm !== null });
  log.info({ ms: Math.round(performance.now() - t0) }, 'sentence encoder and category vectors loaded');
  if (llm) log.info({ url: llm.baseUrl, model: llm.model, mode: llm.mode }, 'chat-model provider on');
  const classifier = createClassifier({
    embedded,
    provider: llm ? createOpenAiProvider(llm) : null,
    onProviderFailure: (provider, reason) => log.warn({ provider, reason }, 'provider failed; embedded answer used'),
  });
  return serve(
    nc,
    ANALYZE_CLASSIFY,
    async (m, ctx) => {
      const { snapshot } = await withSnapshots(nc, m);
      return classifier.classify(snapshot, snapshot.finalUrl || snapshot.requestedUrl, ctx.signal);
    },
    {
      log,
      ...(instance ? { instance } : {}),
    },
  );
}
