/**
 * The result cache and the single flight through the edge's HTTP contract (app.inject), on a
 * private nats-server with a KV store and contract-valid stand-ins for the services, so renders can
 * be counted and made slow or failing. Two edge instances share one store to show the single flight
 * holds across instances.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { EnrichResponseSchema, ErrorEnvelopeSchema, ScreenshotResponseSchema } from '@enrich/shared/contracts';
import { TargetNotASiteError } from '@enrich/shared/errors';
import { startNatsServer, type NatsServerHandle } from '../../../../test/support/nats-server.ts';
import { fakeRenderResult, serveFakes, startEdge, type EdgeHarness } from '../../../../test/support/edge-harness.ts';

let nats: NatsServerHandle;
let a: EdgeHarness;
let b: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;
/** What the stand-in renderer does next: a delay, and whether it fails. */
let renderDelayMs = 0;
let renderFails = false;

const CACHE = { enabled: true, maxAgeS: 86_400, maxBytes: 64 * 1_048_576, maxEntries: 10_000, maxEntryBytes: 524_288 };

beforeAll(async () => {
  nats = await startNatsServer();
  const store = { kind: 'kv' as const, name: `cache_${randomUUID().slice(0, 8)}` };
  a = await startEdge(nats.url, { store, cache: CACHE });
  b = await startEdge(nats.url, { store, cache: CACHE });
  fakes = serveFakes(a.nc, {
    render: async (req) => {
      await new Promise((r) => setTimeout(r, renderDelayMs));
      if (renderFails)
        throw new TargetNotASiteError('The target answered HTTP 404 Not Found at http://x.test/; there is no page at this URL; check the address');
      return fakeRenderResult(req);
    },
  });
});
afterAll(async () => {
  await fakes?.stop();
  await a?.close();
  await b?.close();
  await nats?.stop();
});
beforeEach(() => {
  renderDelayMs = 0;
  renderFails = false;
});

const site = (): string => `https://${randomUUID().slice(0, 8)}.example/`;
async function get(path: string, key: string, h = a) {
  const res = await h.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } });
  return { status: res.statusCode, headers: res.headers, body: res.json() as { success: boolean; error?: string; data?: unknown } };
}
const renders = (url: string): number => fakes.calls.render.filter((r) => r.url === url).length;

describe('result cache', () => {
  it('a second identical /enrich within maxAge is a HIT with identical data, Age, and the same credits', async () => {
    const { key, id } = await a.createKey({ credits: 100 });
    const url = site();
    const first = await get(`/enrich?url=${encodeURIComponent(url)}`, key);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers.age).toBe('0');
    await new Promise((r) => setTimeout(r, 1100));
    // Same key whichever instance answers; `width=1440` is the default, so it is the same request.
    const second = await get(`/enrich?url=${encodeURIComponent(url)}&width=1440&maxAge=60`, key, b);
    expect(second.status).toBe(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(Number(second.headers.age)).toBeGreaterThanOrEqual(1);
    expect(EnrichResponseSchema.parse(second.body).data).toEqual(EnrichResponseSchema.parse(first.body).data);
    expect(renders(url)).toBe(1);
    // A hit costs what a miss costs (docs/api.md), and says so.
    expect(second.headers['x-credits-used']).toBe('6');
    expect((await a.getKey(id)).credits_used).toBe(6);
  });

  it('maxAge=0 renders again; a parameter that changes the answer is another entry; other endpoints are other entries', async () => {
    const { key } = await a.createKey({ credits: 100 });
    const url = site();
    expect((await get(`/screenshot?url=${encodeURIComponent(url)}`, key)).headers['x-cache']).toBe('MISS');
    const again = await get(`/screenshot?url=${encodeURIComponent(url)}&maxAge=0`, key);
    expect(again.headers['x-cache']).toBe('MISS');
    expect(renders(url)).toBe(2);
    // The fresh answer replaced the entry: the next default request is a HIT of the new render.
    const next = await get(`/screenshot?url=${encodeURIComponent(url)}`, key);
    expect(next.headers['x-cache']).toBe('HIT');
    expect(ScreenshotResponseSchema.parse(next.body).data.screenshot_url).toBe(ScreenshotResponseSchema.parse(again.body).data.screenshot_url);
    expect((await get(`/screenshot?url=${encodeURIComponent(url)}&format=png`, key)).headers['x-cache']).toBe('MISS');
    expect((await get(`/classify?url=${encodeURIComponent(url)}`, key)).headers['x-cache']).toBe('MISS');
    expect(renders(url)).toBe(4);
  });

  it('an entry older than maxAge is not served', async () => {
    const { key } = await a.createKey({ credits: 100 });
    const url = site();
    await get(`/classify?url=${encodeURIComponent(url)}`, key);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await get(`/classify?url=${encodeURIComponent(url)}&maxAge=1`, key)).headers['x-cache']).toBe('MISS');
    expect(renders(url)).toBe(2);
  });

  it.each([['-1'], ['2592001'], ['abc'], ['1.5'], ['']])('maxAge=%s is a 400 naming maxAge, at no charge', async (value) => {
    const { key, id } = await a.createKey({ credits: 100 });
    const res = await get(`/enrich?url=example.com&maxAge=${value}`, key);
    expect(res.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(res.body).error).toBe(
      `Invalid query parameter "maxAge": got ${JSON.stringify(value)}, allowed: a whole number of seconds from 0 to 2592000 (30 days): the oldest cached answer accepted; 0 renders now`,
    );
    expect((await a.getKey(id)).credits_used).toBe(0);
  });
});

describe('one render for identical requests in flight', () => {
  it('10 concurrent identical /screenshot requests over two instances share one render; each is charged', async () => {
    const { key, id } = await a.createKey({ credits: 100 });
    const url = site();
    renderDelayMs = 400;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => get(`/screenshot?url=${encodeURIComponent(url)}`, key, i % 2 ? b : a)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(renders(url)).toBe(1);
    const shots = new Set(results.map((r) => ScreenshotResponseSchema.parse(r.body).data.screenshot_url));
    expect(shots.size).toBe(1);
    expect(results.every((r) => r.headers['x-cache'] === 'MISS')).toBe(true);
    expect((await a.getKey(id)).credits_used).toBe(10);
  });

  it('a failed render is shared as the failure, charged to no one and not cached', async () => {
    const { key, id } = await a.createKey({ credits: 100 });
    const url = site();
    renderDelayMs = 300;
    renderFails = true;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => get(`/brand?url=${encodeURIComponent(url)}`, key, i % 2 ? b : a)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(502));
    expect(new Set(results.map((r) => r.body.error))).toEqual(
      new Set(['The target answered HTTP 404 Not Found at http://x.test/; there is no page at this URL; check the address']),
    );
    expect(renders(url)).toBe(1);
    expect((await a.getKey(id)).credits_used).toBe(0);
    expect(
      await a.cache!.peek('brand', url, {
        screenshotColors: undefined,
        css: false,
        html: false,
        javascript: false,
        width: 1440,
        height: 900,
        format: 'jpeg',
        full_page: false,
      }),
    ).toBeNull();
    renderFails = false;
    expect((await get(`/brand?url=${encodeURIComponent(url)}`, key)).headers['x-cache']).toBe('MISS');
    expect(renders(url)).toBe(2);
  });
});

describe('OpenAPI', () => {
  it('documents maxAge on every data endpoint and X-Cache/Age on their answers', async () => {
    type Header = { $ref?: string; schema?: Record<string, unknown> };
    const doc = (await a.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        {
          get: {
            parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
            responses: Record<string, { headers?: Record<string, Header> }>;
          };
        }
      >;
      components: { headers: Record<string, Header> };
    };
    const resolve = (h: Header | undefined): Header | undefined => (h?.$ref ? doc.components.headers[h.$ref.split('/').pop()!] : h);
    for (const path of ['/enrich', '/brand', '/company', '/classify', '/screenshot']) {
      expect(doc.paths[path]!.get.parameters.find((p) => p.name === 'maxAge')).toMatchObject({
        in: 'query',
        schema: { type: 'integer', minimum: 0, maximum: 2_592_000, default: 86_400 },
      });
      const headers = doc.paths[path]!.get.responses['200']!.headers!;
      expect(resolve(headers['X-Cache'])?.schema).toMatchObject({ enum: ['HIT', 'MISS'] });
      expect(resolve(headers.Age)?.schema).toMatchObject({ type: 'string' });
    }
  });
});
