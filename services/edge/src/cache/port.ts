/** Where cached answers live: JetStream KV by default, MongoDB with MONGODB_URI. */

export interface CachedAnswer {
  /** Epoch ms at which the answer was produced. */
  storedAt: number;
  /** The validated `data` of the answer. */
  data: unknown;
}

export interface AnswerStore {
  readonly kind: 'kv' | 'mongo';
  init(): Promise<void>;
  /** The entry, or null when there is none (or it expired). */
  get(key: string): Promise<CachedAnswer | null>;
  /** Stores the serialised answer; false when it was not kept (too large, store full). */
  put(key: string, storedAt: number, json: string): Promise<boolean>;
  close(): Promise<void>;
}

export function parseAnswer(text: string): CachedAnswer | null {
  try {
    const v = JSON.parse(text) as { storedAt?: unknown; data?: unknown };
    return typeof v.storedAt === 'number' && v.data !== undefined ? { storedAt: v.storedAt, data: v.data } : null;
  } catch {
    return null;
  }
}

/** The stored form: `{"storedAt":..,"data":..}` built from the answer's JSON without parsing it again. */
export function answerJson(storedAt: number, dataJson: string): string {
  return `{"storedAt":${storedAt},"data":${dataJson}}`;
}
