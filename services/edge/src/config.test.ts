import { describe, expect, it } from 'vitest';
import { ConfigError } from '@enrich/shared/runtime';
import { loadEdgeConfig } from './config.ts';

describe('loadEdgeConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadEdgeConfig({})).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      store: { kind: 'kv', name: 'enrich' },
      requestBudgetMs: 30_000,
      trustProxy: 0,
      ipRateLimitPerMin: 300,
      ipv6Prefix: 64,
      usageRetentionMs: 90 * 86_400_000,
      ledgerRetentionMs: 7 * 86_400_000,
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
    expect(loadEdgeConfig({ REQUEST_BUDGET_MS: '5000', RESERVATION_TTL_MS: '5000' }).reservationTtlMs).toBe(5000);
  });
  it('refuses a reservation TTL below the request budget (the sweeper would refund running requests)', () => {
    expect(() => loadEdgeConfig({ REQUEST_BUDGET_MS: '5000', RESERVATION_TTL_MS: '4999' })).toThrow(
      /RESERVATION_TTL_MS="4999": must be at least REQUEST_BUDGET_MS \(5000\)/,
    );
    expect(() => loadEdgeConfig({ RESERVATION_TTL_MS: '1500' })).toThrow(ConfigError);
  });
  it('TRUST_PROXY takes a hop count or proxy addresses/CIDRs, never every hop', () => {
    expect(loadEdgeConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadEdgeConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadEdgeConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadEdgeConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    for (const every of ['true', 'TRUE', 'yes', '*', 'all']) {
      expect(() => loadEdgeConfig({ TRUST_PROXY: every })).toThrow(/trusting every hop lets a client choose its own IP/);
    }
    expect(() => loadEdgeConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY="10.0.0.0\/33": .*not an address or CIDR: "10.0.0.0\/33"/);
    expect(() => loadEdgeConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY="maybe"/);
    expect(() => loadEdgeConfig({ TRUST_PROXY: '17' })).toThrow(/TRUST_PROXY="17": a hop count must be from 0 to 16/);
  });
  it('ALLOW_PRIVATE_TARGETS: CIDRs, a test switch refused with NODE_ENV=production', () => {
    expect(loadEdgeConfig({}).allowPrivateTargets).toEqual([]);
    expect(loadEdgeConfig({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32, ::1' }).allowPrivateTargets).toEqual(['127.0.0.2/32', '::1']);
    expect(() => loadEdgeConfig({ ALLOW_PRIVATE_TARGETS: 'intranet' })).toThrow(/ALLOW_PRIVATE_TARGETS="intranet"/);
    expect(() => loadEdgeConfig({ NODE_ENV: 'production', ALLOW_PRIVATE_TARGETS: '127.0.0.2/32' })).toThrow(
      /ALLOW_PRIVATE_TARGETS="127.0.0.2\/32": a test switch, refused when NODE_ENV=production/,
    );
    expect(loadEdgeConfig({ NODE_ENV: 'production' }).allowPrivateTargets).toEqual([]);
  });
  it('reads the IPv6 prefix and the retention periods', () => {
    expect(loadEdgeConfig({ RATE_LIMIT_IPV6_PREFIX: '56', USAGE_RETENTION_DAYS: '30', LEDGER_RETENTION_DAYS: '2' })).toMatchObject({
      ipv6Prefix: 56,
      usageRetentionMs: 30 * 86_400_000,
      ledgerRetentionMs: 2 * 86_400_000,
    });
    expect(() => loadEdgeConfig({ RATE_LIMIT_IPV6_PREFIX: '129' })).toThrow(/RATE_LIMIT_IPV6_PREFIX="129"/);
  });
  it('names the variable and value it refuses', () => {
    expect(() => loadEdgeConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty": must be a whole number/);
  });
});
