/**
 * The classifier's environment, validated once at boot (merged with BaseConfigSchema by runService).
 * The chat-model provider is off unless CLASSIFIER_LLM_URL is set; then a model name is required.
 */
import { z } from 'zod';
import { envInt, loadConfig } from '@enrich/shared/runtime';
import type { OpenAiProviderOptions } from './providers/openai.ts';

export const ClassifierConfigSchema = z.object({
  /** Base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1; POSTs go to {base}/chat/completions. */
  CLASSIFIER_LLM_URL: z.url().optional(),
  CLASSIFIER_LLM_MODEL: z.string().min(1).optional(),
  CLASSIFIER_LLM_API_KEY: z.string().min(1).optional(),
  /** The embedded answer is used when the model has not answered by then. */
  CLASSIFIER_LLM_TIMEOUT_MS: envInt(100, 120_000).default(5_000),
  /** `confirm`: the model picks among the embedded classifier's best families; `replace`: any category. */
  CLASSIFIER_LLM_MODE: z.enum(['confirm', 'replace']).default('confirm'),
});
export type ClassifierConfig = z.infer<typeof ClassifierConfigSchema>;

/** For tests and tools: the classifier's settings from an env-like record, with every default applied. */
export function loadClassifierConfig(env: Record<string, string | undefined> = process.env): ClassifierConfig {
  return loadConfig(ClassifierConfigSchema, env);
}

/** Provider settings, or null when no chat model is configured. */
export function llmProviderOptions(config: ClassifierConfig): OpenAiProviderOptions | null {
  if (!config.CLASSIFIER_LLM_URL) return null;
  if (!config.CLASSIFIER_LLM_MODEL) throw new Error('CLASSIFIER_LLM_MODEL is required when CLASSIFIER_LLM_URL is set');
  return {
    baseUrl: config.CLASSIFIER_LLM_URL,
    model: config.CLASSIFIER_LLM_MODEL,
    apiKey: config.CLASSIFIER_LLM_API_KEY,
    timeoutMs: config.CLASSIFIER_LLM_TIMEOUT_MS,
    mode: config.CLASSIFIER_LLM_MODE,
  };
}
