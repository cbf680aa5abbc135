/**
 * The client against a local HTTP server that answers what the API answers under pressure: 429 and
 * 503 with Retry-After, error envelopes, silence. Proves the retries honour Retry-After (the wait the
 * client chose is reported, not timed), stop at their bound, and that errors are typed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EnrichApiError, EnrichClient, EnrichTimeoutError, parseRetryAfter, type RetryInfo } from './index.ts';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;
let answers: Answer[] = [];
let seen: Array<{ url: string; key: string | undefined }> = [];
let server: Server;
let baseUrl: string;
const REQUEST_ID = '0b7f1f8e-8a53-4a43-9b0e-0d2f4d1c6a11';

const envelope = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': REQUEST_ID, ...headers }).end(JSON.stringify(body));
const refuse =
  (status: number, error: string, retryAfter?: string): Answer =>
  (_req, res) =>
    envelope(
      res,
      status,
      { success: false, error, meta: { requestId: REQUEST_ID, durationMs: 1 } },
      retryAfter === undefined ? {} : { 'retry-after': retryAfter },
    );
const classified: Answer = (_req, res) =>
  envelope(res, 200, {
    success: true,
    data: {
      url: 'https://northwind.example/',
      iab_id: 'IAB8-6',
      iab_parent_id: 'IAB8',
      category: 'Food & Drink',
      subcategory: 'Coffee/Tea',
      description: 'Coffee roaster.',
    },
    meta: { requestId: REQUEST_ID, durationMs: 5 },
  });

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
    const answer = answers.shift();
    if (answer) answer(req, res);
    // No answer left: stay silent (the timeout case).
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  answers = [];
  seen = [];
});

function client(retries: RetryInfo[], over: { retries?: number; maxRetryDelayMs?: number } = {}): EnrichClient {
  return new EnrichClient({ baseUrl, apiKey: 'ek_test', onRetry: (r) => retries.push(r), ...over });
}

describe('EnrichClient retries', () => {
  it('waits the Retry-After of a 429, then returns the data of the 200', async () => {
    answers = [refuse(429, 'Rate limit exceeded: this API key allows 60 requests per minute; retry in 1 s', '1'), classified];
    const retries: RetryInfo[] = [];
    const data = await client(retries).classify({ url: 'northwind.example' });
    expect(data.category).toBe('Food & Drink');
    expect(retries).toEqual([{ endpoint: 'classify', attempt: 1, status: 429, delayMs: 1000, fromRetryAfter: true }]);
    expect(seen).toEqual([
      { url: '/classify?url=northwind.example', key: 'ek_test' },
      { url: '/classify?url=northwind.example', key: 'ek_test' },
    ]);
  });

  it('retries a 503 as often as allowed, then throws its typed error', async () => {
    answers = [0, 1, 2].map(() => refuse(503, 'Service temporarily unavailable: no renderer answered; retry later', '0'));
    const retries: RetryInfo[] = [];
    const err = await client(retries, { retries: 2 })
      .classify({ url: 'northwind.example' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnrichApiError);
    expect(err).toMatchObject({
      status: 503,
      message: 'Service temporarily unavailable: no renderer answered; retry later',
      requestId: REQUEST_ID,
      retryAfterSeconds: 0,
    });
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(seen).toHaveLength(3);
  });

  it('does not retry when Retry-After is beyond its bound: the 429 comes back at once', async () => {
    answers = [refuse(429, 'Rate limit exceeded: this API key allows 60 requests per minute; retry in 45 s', '45'), classified];
    const retries: RetryInfo[] = [];
    const err = await client(retries, { maxRetryDelayMs: 30_000 })
      .classify({ url: 'northwind.example' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'EnrichApiError', status: 429, retryAfterSeconds: 45 });
    expect(retries).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('never retries other errors; 401 is typed with the message and request id', async () => {
    answers = [refuse(401, 'Invalid API key'), classified];
    const err = await client([])
      .screenshot({ url: 'northwind.example', width: 800, full_page: true })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnrichApiError);
    expect(err).toMatchObject({ status: 401, message: 'Invalid API key', requestId: REQUEST_ID });
    // Numbers and booleans travel as the query strings the API parses.
    expect(seen).toEqual([{ url: '/screenshot?url=northwind.example&width=800&full_page=true', key: 'ek_test' }]);
  });

  it('gives up with EnrichTimeoutError when the call exceeds its timeout', async () => {
    const err = await client([])
      .classify({ url: 'northwind.example' }, { timeoutMs: 300 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnrichTimeoutError);
    expect(err).toMatchObject({ endpoint: 'classify', timeoutMs: 300 });
    expect(seen).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
