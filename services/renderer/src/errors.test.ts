import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, InternalError, TargetUnreachableError, UnavailableError, UrlForbiddenError } from '@enrich/shared/errors';
import { toRenderError } from './errors.ts';

const base = { url: 'https://shop.example/', stage: 'navigating', budgetMs: 20_000, deadlineHit: false, browserGone: false, refusal: undefined };

describe('toRenderError', () => {
  it('keeps the net error and URL for unreachable targets', () => {
    const err = toRenderError(new Error('page.goto: net::ERR_CONNECTION_REFUSED at https://shop.example/\nCall log: ...'), base);
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect(err.message).toBe('target unreachable: net::ERR_CONNECTION_REFUSED at https://shop.example/');
    expect(toRenderError(new Error('net::ERR_CERT_AUTHORITY_INVALID at x'), base)).toBeInstanceOf(TargetUnreachableError);
    expect(toRenderError(new Error('net::ERR_NAME_NOT_RESOLVED at x'), base)).toBeInstanceOf(TargetUnreachableError);
  });
  it('names a timeout a deadline, with the stage', () => {
    const timeout = Object.assign(new Error('page.goto: Timeout 1000ms exceeded.'), { name: 'TimeoutError' });
    const err = toRenderError(timeout, base);
    expect(err).toBeInstanceOf(DeadlineExceededError);
    expect(err.message).toContain('while navigating');
    expect(toRenderError(new Error('Target page, context or browser has been closed'), { ...base, deadlineHit: true })).toBeInstanceOf(DeadlineExceededError);
  });
  it('makes a crashed browser retryable', () => {
    const err = toRenderError(new Error('page.goto: Target page, context or browser has been closed'), base);
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.retryable).toBe(true);
  });
  it('explains a failure by the egress refusal behind it', () => {
    const err = toRenderError(new Error('net::ERR_TUNNEL_CONNECTION_FAILED at https://shop.example/'), {
      ...base,
      refusal: {
        url: 'https://127.0.0.1:8443/',
        kind: 'forbidden',
        reason: '127.0.0.1 resolves to 127.0.0.1: loopback',
        netError: 'net::ERR_BLOCKED_BY_CLIENT',
      },
    });
    expect(err).toBeInstanceOf(UrlForbiddenError);
    expect(err.message).toContain('loopback');
  });
  it('hides unknown failures behind INTERNAL', () => {
    expect(toRenderError(new Error('something odd'), base)).toBeInstanceOf(InternalError);
  });
});
