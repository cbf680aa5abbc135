import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseConfigSchema, ConfigError, envBoolean, envInt, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies defaults when nothing is set', () => {
    const c = loadConfig(BaseConfigSchema, {});
    expect(c.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(c.LOG_LEVEL).toBe('info');
    expect(c.HEALTH_PORT).toBeUndefined();
  });

  it('names the variable and the value it refuses', () => {
    expect(() => loadConfig(BaseConfigSchema, { NATS_URL: 'http://nats:4222', LOG_LEVEL: 'loud' })).toThrowError(ConfigError);
    const bad = () => loadConfig(BaseConfigSchema, { NATS_URL: 'http://nats:4222', HEALTH_PORT: '99999' });
    expect(bad).toThrow('NATS_URL="http://nats:4222"');
    expect(bad).toThrow('HEALTH_PORT="99999": must be from 1 to 65535');
  });

  it('treats empty strings as unset, as compose files write them', () => {
    expect(loadConfig(BaseConfigSchema, { HEALTH_PORT: '', NATS_URL: '' }).NATS_URL).toBe('nats://127.0.0.1:4222');
  });

  it('accepts several NATS servers', () => {
    expect(loadConfig(BaseConfigSchema, { NATS_URL: 'nats://a:4222, nats://b:4222' }).NATS_URL).toContain('nats://b');
  });

  it('parses booleans and bounded integers from text', () => {
    const s = z.object({ A: envBoolean, B: envInt(1, 10) });
    expect(loadConfig(s, { A: 'yes', B: '10' })).toEqual({ A: true, B: 10 });
    expect(() => loadConfig(s, { A: 'maybe', B: '1' })).toThrow(/A="maybe"/);
    expect(() => loadConfig(s, { A: 'true', B: '1.5' })).toThrow(/B="1.5": must be a whole number from 1 to 10/);
  });
});
