/**
 * The HTTP contract through app.inject(), on a private nats-server (so no other suite's services
 * answer our subjects) with contract-valid stand-ins for the renderer and analyzers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrandResponseSchema,
  ClassifyResponseSchema,
  CompanyResponseSchema,
  CREDIT_COSTS,
  EnrichResponseSchema,
  ErrorEnvelopeSchema,
  HealthResponseSchema,
  ReadyResponseSchema,
  RENDER_PAGE,
  ScreenshotResponseSchema,
  SNAPSHOT_REF_BUCKET,
} from '@enrich/shared/contracts';
import { deleteSnapshots, putSnapshot } from '@enrich/shared/nats';
import { Objm } from '@nats-io/obj';
import { BusyError, TargetUnreachableError, UrlForbiddenError } from '@enrich/shared/errors';
import type { z } from 'zod';
import { connect } from '@nats-io/transport-node';
import { startNatsServer, type NatsServerHandle } from '../../../test/support/nats-server.ts';
import { fakeRenderResult, serveFakes, startEdge, type EdgeHarness } from '../../../test/support/edge-harness.ts';

let nats: NatsServerHandle;
let h: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;

beforeAll(async () => {
  nats = await startNatsServer();
  h = await startEdge(nats.url);
  fakes = serveFakes(h.nc);
});
afterAll(async () => {
  await fakes?.stop();
  await h?.close();
  await nats?.stop();
});

interface Res {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Record<string, unknown> & { success: boolean; error?: string; data?: unknown };
}

/** Every response must be an envelope whose requestId matches X-Request-Id. */
async function get(path: string, key?: string, headers: Record<string, string> = {}, app = h.app): Promise<Res> {
  const res = await app.inject({ method: 'GET', url: path, headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } });
  const body = res.json() as Res['body'];
  if (!body.success) ErrorEnvelopeSchema.parse(body);
  expect((body.meta as { requestId: string }).requestId).toBe(res.headers['x-request-id']);
  return { status: res.statusCode, headers: res.headers, body };
}

function expectError(res: Res, status: number, message: string | RegExp): void {
  expect({ status: res.status, error: res.body.error }).toMatchObject({ status });
  if (typeof message === 'string') expect(res.body.error).toBe(message);
  else expect(res.body.error).toMatch(message);
  expect(res.body).not.toHaveProperty('data');
}

describe('probes, docs and routing', () => {
  it('/health answers 200 with the envelope, without a key', async () => {
    const res = await get('/health');
    expect(res.status).toBe(200);
    HealthResponseSchema.parse(res.body);
  });

  it('/ready answers 200 when NATS, the store and a renderer answer, with no internal detail', async () => {
    const res = await get('/ready');
    expect(res.status).toBe(200);
    const data = ReadyResponseSchema.parse(res.body).data;
    expect(data).toEqual({
      status: 'ready',
      checks: { nats: { ok: true, detail: 'answered' }, store: { ok: true, detail: 'answered' }, renderer: { ok: true, detail: 'answered' } },
    });
  });

  it('/ready answers 503 naming only the failed dependency when no renderer runs', async () => {
    const other = await startNatsServer();
    const lonely = await startEdge(other.url);
    try {
      const res = await get('/ready', undefined, {}, lonely.app);
      expectError(res, 503, 'Not ready: renderer did not answer');
      expect(res.headers['retry-after']).toBe('5');
      expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|render\.page|instance|nats:\/\//);
    } finally {
      await lonely.close();
      await other.stop();
    }
  });

  it('/ready pings ONE renderer through the queue group, not every renderer', async () => {
    const other = await startNatsServer();
    const edge = await startEdge(other.url);
    const renderers = await Promise.all([connect({ servers: other.url }), connect({ servers: other.url })]);
    const observer = await connect({ servers: other.url });
    const stands = renderers.map((nc) => serveFakes(nc, { only: ['render'] }));
    try {
      // Every reply to the edge's requests goes to one of its inboxes: count the renderers' ping answers.
      let replies = 0;
      observer.subscribe('_INBOX.>', {
        callback: (_err, msg) => {
          if (msg.string().includes(`"subject":"${RENDER_PAGE.subject}"`)) replies += 1;
        },
      });
      await observer.flush();
      await Promise.all(renderers.map((nc) => nc.flush()));
      for (let i = 0; i < 3; i++) expect((await get('/ready', undefined, {}, edge.app)).status).toBe(200);
      // Deterministic drain: each renderer has received (and answered) whatever was sent to it
      // after one flush, its answers reached the server after a second, the observer saw them after its own.
      for (let round = 0; round < 2; round++) await Promise.all(renderers.map((nc) => nc.flush()));
      await observer.flush();
      expect(replies).toBe(3);
    } finally {
      for (const f of stands) await f.stop();
      for (const nc of [...renderers, observer]) await nc.close();
      await edge.close();
      await other.stop();
    }
  });

  it('unknown route 404 and wrong method 405 with Allow, both enveloped', async () => {
    expectError(await get('/nothing-here'), 404, /No route GET \/nothing-here/);
    const res = await h.app.inject({ method: 'POST', url: '/classify?url=example.com' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(ErrorEnvelopeSchema.parse(res.json()).error).toBe('Method POST is not allowed on /classify; allowed: GET');
    // HEAD would run (and charge for) the work without returning it.
    expect((await h.app.inject({ method: 'HEAD', url: '/enrich?url=acme.test' })).statusCode).toBe(405);
  });

  it('a malformed request URL is a 400 envelope', async () => {
    expectError(await get('/classify%'), 400, /^Malformed request URL: '\/classify%' is not a valid url component$/);
  });

  it('probes take no query parameters', async () => {
    expectError(await get('/health?verbose=1'), 400, 'Unknown query parameter "verbose"; this endpoint takes no query parameters');
  });

  it('serves the OpenAPI 3.1 document generated from the contracts, and a docs page', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, { get: { parameters?: Array<{ name: string; required: boolean; schema: Record<string, unknown> }> } }>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/batch', '/batch/{id}', '/brand', '/classify', '/company', '/enrich', '/health', '/ready', '/screenshot']);
    const width = doc.paths['/enrich']?.get.parameters?.find((p) => p.name === 'width');
    expect(width).toMatchObject({ required: false, schema: { type: 'integer', default: 1440 } });
    expect(doc.paths['/enrich']?.get.parameters?.find((p) => p.name === 'url')?.required).toBe(true);
    const docs = await h.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('authentication', () => {
  it('missing X-API-Key is a 401 that says so', async () => {
    expectError(await get('/classify?url=example.com'), 401, /^Missing X-API-Key header/);
  });
  it('unknown and revoked keys are 401 Invalid API key', async () => {
    expectError(await get('/classify?url=example.com', 'ek_not-a-real-key'), 401, 'Invalid API key');
    const { key, id } = await h.createKey();
    expect((await get('/classify?url=example.com', key)).status).toBe(200);
    await h.store.revokeKey(id);
    expectError(await get('/classify?url=example.com', key), 401, 'Invalid API key');
  });
});

const ENDPOINT_SCHEMAS: Record<keyof typeof CREDIT_COSTS, z.ZodType> = {
  enrich: EnrichResponseSchema,
  brand: BrandResponseSchema,
  company: CompanyResponseSchema,
  classify: ClassifyResponseSchema,
  screenshot: ScreenshotResponseSchema,
};

describe('credits', () => {
  for (const [endpoint, cost] of Object.entries(CREDIT_COSTS) as Array<[keyof typeof CREDIT_COSTS, number]>) {
    it(`/${endpoint} charges ${cost} on success, with credit and rate-limit headers`, async () => {
      const { key, id } = await h.createKey({ credits: 10, rateLimit: 7 });
      const before = Date.now();
      const res = await get(`/${endpoint}?url=https://acme.test/`, key);
      const after = Date.now();
      expect(res.status).toBe(200);
      ENDPOINT_SCHEMAS[endpoint].parse(res.body);
      expect(res.headers).toMatchObject({ 'x-credits-used': String(cost), 'x-credits-limit': '10', 'x-ratelimit-limit': '7', 'x-ratelimit-remaining': '6' });
      // One hit counts in its 5 s bucket until the bucket's end is a full minute behind.
      const emptyIn = (t: number) => Math.ceil((Math.floor(t / 5_000) * 5_000 + 65_000 - t) / 1000);
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(Math.min(emptyIn(before), emptyIn(after)));
      expect(reset).toBeLessThanOrEqual(Math.max(emptyIn(before), emptyIn(after)));
      expect((await h.getKey(id)).credits_used).toBe(cost);
      expect((await h.getKey(id)).pending).toEqual([]);
    });
  }

  it('402 Credit limit exceeded once the next request would pass the limit; nothing charged', async () => {
    const { key, id } = await h.createKey({ credits: 4 });
    expect((await get('/enrich?url=acme.test', key)).status).toBe(200);
    const res = await get('/enrich?url=acme.test', key);
    expectError(res, 402, 'Credit limit exceeded');
    expect(res.headers).toMatchObject({ 'x-credits-used': '3', 'x-credits-limit': '4' });
    expect((await get('/classify?url=acme.test', key)).status).toBe(200);
    expectError(await get('/classify?url=acme.test', key), 402, 'Credit limit exceeded');
    expect((await h.getKey(id)).credits_used).toBe(4);
  });

  it('validation errors cost nothing', async () => {
    const { key, id } = await h.createKey({ credits: 5 });
    expect((await get('/brand?url=acme.test&width=1', key)).status).toBe(400);
    expect((await h.getKey(id)).credits_used).toBe(0);
  });

  it('usage entries still waiting for their batch are written when the edge closes', async () => {
    const edge = await startEdge(nats.url, { usageFlushMs: 60_000 });
    try {
      const { key, id } = await edge.createKey({ credits: 5 });
      for (let i = 0; i < 3; i++) expect((await edge.app.inject({ url: '/classify?url=ftp://acme.test', headers: { 'x-api-key': key } })).statusCode).toBe(400);
      await new Promise((r) => setTimeout(r, 100));
      expect(await edge.store.listUsage(id, 10)).toEqual([]);
      await edge.app.close();
      expect((await edge.store.listUsage(id, 10)).map((u) => u.status)).toEqual([400, 400, 400]);
    } finally {
      await edge.close().catch(() => undefined);
    }
  });

  it('records every authenticated request in the usage log', async () => {
    const { key, id } = await h.createKey({ credits: 5 });
    const ok = await get('/classify?url=acme.test', key);
    await get('/classify?url=ftp://acme.test', key);
    // The usage write happens after the response; poll until it lands.
    let usage = await h.store.listUsage(id, 10);
    for (let i = 0; i < 50 && usage.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      usage = await h.store.listUsage(id, 10);
    }
    const entry = usage.find((u) => u.requestId === (ok.body.meta as { requestId: string }).requestId);
    expect(entry).toMatchObject({ keyId: id, endpoint: 'classify', status: 200, credits: 1 });
    expect(usage.find((u) => u.status === 400)).toMatchObject({ credits: 0, endpoint: 'classify' });
  });
});

describe('refunds and error statuses from the services', () => {
  let failing: EdgeHarness;
  let failingNats: NatsServerHandle;
  let mode: 'unreachable' | 'forbidden' | 'busy' | 'busy-twice' | 'hang' | 'crash' | 'snapshot-gone' = 'unreachable';
  let busyAnswers = 0;
  let failingFakes: ReturnType<typeof serveFakes>;

  beforeAll(async () => {
    failingNats = await startNatsServer();
    failing = await startEdge(failingNats.url, { requestBudgetMs: 400 });
    failingFakes = serveFakes(failing.nc, {
      async render(req, ctx) {
        if (mode === 'unreachable') throw new TargetUnreachableError(`${req.url} could not be reached: net::ERR_CONNECTION_REFUSED`);
        if (mode === 'forbidden') throw new UrlForbiddenError(`${req.url} resolves to 10.0.0.1, a private address`);
        if (mode === 'busy' || (mode === 'busy-twice' && busyAnswers < 2)) {
          busyAnswers++;
          throw new BusyError('all 4 browser slots and 8 queue places are taken');
        }
        if (mode === 'busy-twice') return fakeRenderResult(req);
        if (mode === 'snapshot-gone') {
          // Stored, then gone before an analyzer reads it (expired, or a bucket lost with its server).
          const r = fakeRenderResult(req);
          const ref = await putSnapshot(failing.nc, r.snapshot!);
          await deleteSnapshots(failing.nc, [ref]);
          return { ...r, snapshot: null, snapshotRef: ref };
        }
        if (mode === 'crash') throw new Error('TypeError: cannot read properties of undefined (reading "x") at /srv/render.ts:12');
        // hang: answer only when the budget is gone, as a slow page would.
        await new Promise((r) => ctx.signal.addEventListener('abort', r));
        throw ctx.signal.reason;
      },
    });
  });
  afterAll(async () => {
    await failingFakes?.stop();
    await failing?.close();
    await failingNats?.stop();
  });

  async function expectRefunded(path: string, status: number, message: RegExp): Promise<Res> {
    const { key, id } = await failing.createKey({ credits: 3 });
    const res = await get(path, key, {}, failing.app);
    expectError(res, status, message);
    const after = await failing.getKey(id);
    expect(after.credits_used).toBe(0);
    expect(after.pending).toEqual([]);
    return res;
  }

  it('502 when the target is unreachable, refunded', async () => {
    mode = 'unreachable';
    await expectRefunded('/enrich?url=acme.test', 502, /could not be reached: net::ERR_CONNECTION_REFUSED/);
  });
  it('503 when the stored snapshot is gone before the analyzer reads it, refunded', async () => {
    mode = 'snapshot-gone';
    const res = await expectRefunded('/classify?url=acme.test', 503, /the page snapshot expired before it was analysed; ask again/);
    expect(res.headers['retry-after']).toBe('5');
  });
  it('400 when the renderer refuses the address (SSRF), refunded', async () => {
    mode = 'forbidden';
    await expectRefunded('/screenshot?url=internal.acme.test', 400, /private address/);
  });
  it('503 with Retry-After when the renderer is busy, refunded', async () => {
    mode = 'busy';
    const res = await expectRefunded('/brand?url=acme.test', 503, /^Temporarily unavailable, retry in a few seconds: all 4 browser slots/);
    expect(res.headers['retry-after']).toBe('5');
  });
  it('BUSY is retried while the budget lasts (another renderer may be free): two BUSY answers, then a render', async () => {
    const patient = await startEdge(failingNats.url, { requestBudgetMs: 20_000 });
    try {
      mode = 'busy-twice';
      busyAnswers = 0;
      const { key, id } = await patient.createKey({ credits: 3 });
      const ok = await get('/screenshot?url=acme.test', key, {}, patient.app);
      expect(ok.status).toBe(200);
      expect(busyAnswers).toBe(2);
      expect((await patient.getKey(id)).credits_used).toBe(1);
      // Always busy: three tries, then the 503 stands, refunded.
      mode = 'busy';
      busyAnswers = 0;
      const refused = await get('/screenshot?url=acme.test', key, {}, patient.app);
      expectError(refused, 503, /browser slots/);
      expect(busyAnswers).toBe(3);
      expect((await patient.getKey(id)).credits_used).toBe(1);
    } finally {
      await patient.close();
    }
  });
  it('504 naming the budget and what was still running, refunded', async () => {
    mode = 'hang';
    await expectRefunded(
      '/classify?url=slow.acme.test',
      504,
      /^The request budget of 400 ms ran out while render\.page \(loading http:\/\/slow\.acme\.test\/\) was still running$/,
    );
  });
  it('500 for anything else: a message with the requestId, never the internal detail', async () => {
    mode = 'crash';
    const res = await expectRefunded('/company?url=acme.test', 500, /^Internal error; quote request id [0-9a-f-]{36} when reporting it$/);
    expect(res.body.error).toContain((res.body.meta as { requestId: string }).requestId);
    expect(JSON.stringify(res.body)).not.toMatch(/render\.ts|TypeError/);
  });
  it('503 when no renderer is subscribed (NoResponders), refunded', async () => {
    const other = await startNatsServer();
    const lonely = await startEdge(other.url);
    try {
      const { key, id } = await lonely.createKey({ credits: 3 });
      const res = await get('/screenshot?url=acme.test', key, {}, lonely.app);
      expectError(res, 503, /no instance of render\.page is running/);
      expect(res.headers['retry-after']).toBe('5');
      expect((await lonely.getKey(id)).credits_used).toBe(0);
    } finally {
      await lonely.close();
      await other.stop();
    }
  });
});

describe('orchestration', () => {
  it('/enrich loads the page ONCE and merges the three analyzers', async () => {
    const { key } = await h.createKey();
    const before = { render: fakes.calls.render.length, brand: fakes.calls.brand.length, company: fakes.calls.company.length, classify: fakes.calls.classify };
    const res = await get('/enrich?url=www.acme.test/start&screenshotColors=4&css=1&format=png&full_page=true&width=1280&height=720', key);
    expect(res.status).toBe(200);
    const data = EnrichResponseSchema.parse(res.body).data;
    expect(fakes.calls.render.length - before.render).toBe(1);
    expect(fakes.calls.brand.length - before.brand).toBe(1);
    expect(fakes.calls.company.length - before.company).toBe(1);
    expect(fakes.calls.classify - before.classify).toBe(1);
    const render = fakes.calls.render.at(-1);
    expect(render).toMatchObject({
      url: 'http://www.acme.test/start',
      viewport: { width: 1280, height: 720 },
      screenshot: { format: 'png', fullPage: true },
      snapshot: true,
      visuals: true,
      // screenshotColors reads the thumbnail
      thumbnail: true,
      scripts: false,
    });
    expect(fakes.calls.brand.at(-1)?.options).toEqual({ screenshotColors: 4, css: true, html: false, javascript: false });
    // The snapshot travels once: stored by the renderer, read by each analyzer, deleted once answered.
    expect(render?.snapshotByRef).toBe(true);
    expect(fakes.calls.brand.at(-1)?.snapshot.finalUrl).toBe('http://www.acme.test/start');
    expect(fakes.calls.company.at(-1)?.snapshot).toEqual(fakes.calls.brand.at(-1)?.snapshot);
    const bucket = await new Objm(h.nc).open(SNAPSHOT_REF_BUCKET);
    const stored = async (): Promise<number> => (await bucket.list()).length;
    for (let i = 0; i < 40 && (await stored()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await stored()).toBe(0);
    expect(data.domain).toBe('acme.test');
    expect(data.url).toBe('http://www.acme.test/start');
    expect(data.images.screenshot_url).toMatch(/\.png$/);
    expect(data.company.name).toBe('Acme Analytics GmbH');
    expect(data.classification.iab_id).toBe('IAB19-6');
  });

  it('/classify renders without screenshot, visuals, elements or styles; /company without styles; /screenshot without snapshot', async () => {
    const { key } = await h.createKey();
    await get('/classify?url=acme.test', key);
    expect(fakes.calls.render.at(-1)).toMatchObject({
      screenshot: null,
      snapshot: true,
      visuals: false,
      elements: false,
      styles: false,
      viewport: { width: 1440, height: 900 },
    });
    await get('/company?url=acme.test', key);
    expect(fakes.calls.render.at(-1)).toMatchObject({ screenshot: null, snapshot: true, visuals: false, styles: false });
    expect(fakes.calls.render.at(-1)?.elements).toBeUndefined();
    // /enrich's one render serves the brand analyzer too: everything is collected.
    await get('/enrich?url=acme.test', key);
    const enrich = fakes.calls.render.findLast((r) => r.visuals && r.earlySnapshotTo !== undefined);
    expect([enrich?.elements, enrich?.styles]).toEqual([undefined, undefined]);
    const shot = await get('/screenshot?url=https://acme.test', key);
    expect(fakes.calls.render.at(-1)).toMatchObject({
      snapshot: false,
      screenshot: { format: 'jpeg', fullPage: false },
      viewport: { width: 1440, height: 900 },
    });
    expect(ScreenshotResponseSchema.parse(shot.body).data).toMatchObject({
      url: 'https://acme.test/',
      format: 'jpeg',
      full_page: false,
      viewport: { width: 1440, height: 900 },
    });
  });

  it('/brand passes the javascript flag to the renderer as scripts', async () => {
    const { key } = await h.createKey();
    await get('/brand?url=acme.test&javascript=TRUE', key);
    // No screenshotColors: no thumbnail to make.
    expect(fakes.calls.render.at(-1)).toMatchObject({ scripts: true, visuals: true, thumbnail: false, snapshot: true });
  });

  it('/company with follow_links renders the suggested pages and asks again with their snapshots', async () => {
    const other = await startNatsServer();
    const edge = await startEdge(other.url);
    const f = serveFakes(edge.nc, { companyFollowUp: ['http://acme.test/contact', 'http://acme.test/imprint'] });
    try {
      const { key } = await edge.createKey();
      const plain = await get('/company?url=acme.test', key, {}, edge.app);
      expect(CompanyResponseSchema.parse(plain.body).data.pages).toEqual(['http://acme.test/']);
      expect(f.calls.render.length).toBe(1);
      const res = await get('/company?url=acme.test&follow_links=true', key, {}, edge.app);
      const data = CompanyResponseSchema.parse(res.body).data;
      expect(
        f.calls.render
          .slice(1)
          .map((r) => r.url)
          .sort(),
      ).toEqual(['http://acme.test/', 'http://acme.test/contact', 'http://acme.test/imprint']);
      expect(f.calls.company.at(-1)?.extraSnapshots.length).toBe(2);
      expect(f.calls.render.every((r) => r.styles === false)).toBe(true);
      expect(data.pages).toEqual(['http://acme.test/', 'http://acme.test/contact', 'http://acme.test/imprint']);
      expect(data.addresses).toEqual(['Hauptstrasse 1, 10115 Berlin']);
    } finally {
      await f.stop();
      await edge.close();
      await other.stop();
    }
  });
});
