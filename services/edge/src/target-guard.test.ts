import { describe, expect, it } from 'vitest';
import { UrlForbiddenError } from '@enrich/shared/errors';
import { normalizeTargetUrl } from './params.ts';
import { PRIVATE_TARGET_MESSAGE, targetGuard } from './target-guard.ts';

const guard = targetGuard([]);
const check = (input: string) => guard(normalizeTargetUrl(input));

describe('targetGuard', () => {
  it.each([
    'localhost',
    'http://localhost:3000/',
    'LOCALHOST.',
    'app.localhost',
    '127.0.0.1',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    'http://[::1]/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
  ])('refuses %s without naming an address', (input) => {
    expect(() => check(input)).toThrow(UrlForbiddenError);
    expect(() => check(input)).toThrow(PRIVATE_TARGET_MESSAGE);
  });

  it('the message names no address', () => {
    expect(PRIVATE_TARGET_MESSAGE).not.toMatch(/\d+\.\d+|::/);
  });

  it.each(['example.com', 'http://93.184.216.34/', 'http://[2606:2800:220:1::1]/', 'localhost.example.com', 'http://10.example/'])(
    "lets %s through (names are the renderer's to resolve)",
    (input) => {
      expect(check(input)).toBe(normalizeTargetUrl(input));
    },
  );

  it('ALLOW_PRIVATE_TARGETS exempts its CIDRs and nothing else', () => {
    const allowing = targetGuard(['127.0.0.2/32']);
    expect(allowing('http://127.0.0.2:8080/')).toBe('http://127.0.0.2:8080/');
    expect(() => allowing('http://127.0.0.1/')).toThrow(UrlForbiddenError);
    expect(() => allowing('http://localhost/')).toThrow(UrlForbiddenError);
    expect(targetGuard(['127.0.0.0/8'])('http://localhost/')).toBe('http://localhost/');
  });
});
