import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BadMessageError,
  BusyError,
  DeadlineExceededError,
  InternalError,
  InvalidParameterError,
  NoRespondersError,
  TargetUnreachableError,
  UnavailableError,
  UrlForbiddenError,
} from '@enrich/shared/errors';
import { EdgeHttpError, toHttpFailure } from './errors.ts';

const RID = '7b0c3c1e-8a4e-4d8e-9d0e-1f2a3b4c5d6e';

describe('toHttpFailure', () => {
  it.each([
    [new InvalidParameterError('width out of range'), 400, 'width out of range'],
    [new UrlForbiddenError('resolves to 127.0.0.1'), 400, 'resolves to 127.0.0.1'],
    [new TargetUnreachableError('net::ERR_NAME_NOT_RESOLVED'), 502, 'net::ERR_NAME_NOT_RESOLVED'],
    [new DeadlineExceededError('budget of 30000 ms ran out'), 504, 'budget of 30000 ms ran out'],
  ])('%s -> %i', (err, status, message) => {
    expect(toHttpFailure(err, RID)).toEqual({ status, message, headers: {}, hidden: false });
  });

  it.each([new BusyError('queue full'), new NoRespondersError('no renderer'), new UnavailableError('store down')])('%s -> 503 with Retry-After', (err) => {
    const f = toHttpFailure(err, RID);
    expect(f).toMatchObject({ status: 503, headers: { 'retry-after': '5' }, hidden: false });
    expect(f.message).toContain(err.message);
  });

  it.each([new BadMessageError('reply outside contract: at data.x'), new InternalError('boom at /srv/x.ts:1'), new Error('secret stack detail'), 'a string'])(
    '%s -> 500 with the requestId only',
    (err) => {
      const f = toHttpFailure(err, RID);
      expect(f).toEqual({ status: 500, message: `Internal error; quote request id ${RID} when reporting it`, headers: {}, hidden: true });
    },
  );

  it("keeps the edge's own refusals and fastify client errors as they are", () => {
    expect(toHttpFailure(new EdgeHttpError(429, 'slow down', { 'retry-after': '12' }), RID)).toEqual({
      status: 429,
      message: 'slow down',
      headers: { 'retry-after': '12' },
      hidden: false,
    });
    expect(toHttpFailure(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), RID)).toMatchObject({ status: 415, hidden: false });
  });
});

describe('status codes', () => {
  it('are written only in errors.ts: every other module names them through EDGE_STATUS or the error codes', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const literal = /(?:EdgeHttpError\(|sendError\([^;]*?,\s*|\.code\(|\.status\(|statusCode:\s*|status:\s*)[45]\d\d\b/;
    const offenders = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'errors.ts' && !f.startsWith('openapi'))
      .flatMap((f) =>
        readFileSync(join(dir, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (literal.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
    // The pattern does catch what it is for.
    expect(literal.test("throw new EdgeHttpError(429, 'slow down');")).toBe(true);
    expect(literal.test("return sendError(request, reply, 503, 'not ready');")).toBe(true);
  });
});
