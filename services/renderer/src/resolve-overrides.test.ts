import { describe, expect, it } from 'vitest';
import { loadRendererConfig } from './config.ts';
import { parseResolveOverrides, withResolveOverrides, type Resolve } from './ssrf.ts';

const dnsCalls: string[] = [];
const fakeDns: Resolve = async (h) => {
  dnsCalls.push(h);
  return ['93.184.215.14'];
};

describe('RESOLVE_OVERRIDES', () => {
  it('maps named hosts, then the wildcard, and leaves the rest to DNS', async () => {
    const resolve = withResolveOverrides(parseResolveOverrides('www.acme.com=127.0.0.2, *.x=1.2.3.4'), fakeDns);
    expect(await resolve('WWW.ACME.COM')).toEqual(['127.0.0.2']);
    expect(await resolve('other.org')).toEqual(['93.184.215.14']);
    const all = withResolveOverrides(parseResolveOverrides('*=127.0.0.2'), fakeDns);
    expect(await all('anything.example')).toEqual(['127.0.0.2']);
  });

  it('never overrides an address written as the host', async () => {
    dnsCalls.length = 0;
    const all = withResolveOverrides(parseResolveOverrides('*=127.0.0.2'), fakeDns);
    await all('10.0.0.1');
    await all('[::1]');
    expect(dnsCalls).toEqual(['10.0.0.1', '[::1]']);
  });

  it('is off by default, and a malformed value stops the start naming the variable', () => {
    expect(loadRendererConfig({}).RESOLVE_OVERRIDES).toBe('');
    expect(() => loadRendererConfig({ RESOLVE_OVERRIDES: 'acme.com->127.0.0.2' })).toThrow('RESOLVE_OVERRIDES="acme.com->127.0.0.2"');
    expect(() => parseResolveOverrides('acme.com=not-an-ip')).toThrow('"acme.com=not-an-ip" is not host=ip');
  });
});
