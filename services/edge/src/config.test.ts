import { describe, expect, it } from 'vitest';
import { loadEdgeConfig } from './config.ts';

describe('loadEdgeConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadEdgeConfig({})).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      store: { kind: 'kv', name: 'enrich' },
      requestBudgetMs: 30_000,
      trustProxy: false,
      ipRateLimitPerMin: 300,
      defaultKeyRateLimit: 60,
      reservationTtlMs: 60_000,
      screenshotDir: './.data/screenshots',
    });
  });
  it('picks MongoDB when MONGODB_URI is set, unless STORE says otherwise', () => {
    expect(loadEdgeConfig({ MONGODB_URI: 'mongodb://db:27017' }).store).toEqual({ kind: 'mongo', name: 'enrich', uri: 'mongodb://db:27017' });
    expect(loadEdgeConfig({ MONGODB_URI: 'mongodb://db:27017', STORE: 'kv' }).store.kind).toBe('kv');
    expect(() => loadEdgeConfig({ STORE: 'mongo' })).toThrow(/MONGODB_URI/);
  });
  it('reservation TTL follows the budget unless set', () => {
    expect(loadEdgeConfig({ REQUEST_BUDGET_MS: '5000' }).reservationTtlMs).toBe(10_000);
    expect(loadEdgeConfig({ REQUEST_BUDGET_MS: '5000', RESERVATION_TTL_MS: '700' }).reservationTtlMs).toBe(700);
  });
  it('names the variable and value it refuses', () => {
    expect(() => loadEdgeConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty": must be a whole number/);
    expect(() => loadEdgeConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY="maybe"/);
    expect(loadEdgeConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });
});
