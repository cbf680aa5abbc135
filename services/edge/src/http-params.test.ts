/** Every query parameter of every endpoint, each bound on both sides, through HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrandQuerySchema,
  ClassifyQuerySchema,
  CompanyQuerySchema,
  EnrichQuerySchema,
  ErrorEnvelopeSchema,
  ScreenshotQuerySchema,
} from '@enrich/shared/contracts';
import type { z } from 'zod';
import { startNatsServer, type NatsServerHandle } from '../../../test/support/nats-server.ts';
import { serveFakes, startEdge, type EdgeHarness } from '../../../test/support/edge-harness.ts';

let nats: NatsServerHandle;
let h: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;
let key: string;
let keyId: string;

beforeAll(async () => {
  nats = await startNatsServer();
  h = await startEdge(nats.url);
  fakes = serveFakes(h.nc);
  ({ key, id: keyId } = await h.createKey({ credits: 1_000_000, rateLimit: 1_000_000 }));
});
afterAll(async () => {
  await fakes?.stop();
  await h?.close();
  await nats?.stop();
});

const ENDPOINTS: Record<string, z.ZodObject> = {
  '/enrich': EnrichQuerySchema,
  '/brand': BrandQuerySchema,
  '/company': CompanyQuerySchema,
  '/classify': ClassifyQuerySchema,
  '/screenshot': ScreenshotQuerySchema,
};

/** [parameter, accepted values, refused values] */
const BOUNDS: Array<[string, string[], string[]]> = [
  ['width', ['320', '5000'], ['319', '5001', 'wide']],
  ['height', ['320', '5000'], ['319', '5001', '']],
  ['screenshotColors', ['2', '12'], ['1', '13']],
  ['format', ['jpeg', 'png', 'webp'], ['gif']],
  ['full_page', ['true', 'false', '1', '0'], ['yes']],
  ['css', ['true', '0'], ['maybe']],
  ['html', ['1', 'false'], ['2']],
  ['javascript', ['TRUE', '0'], ['null']],
  ['follow_links', ['true', '0'], ['always']],
];

async function status(path: string): Promise<{ status: number; error?: string }> {
  const res = await h.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': key } });
  const body = res.json() as { success: boolean; error?: string };
  if (!body.success) ErrorEnvelopeSchema.parse(body);
  return { status: res.statusCode, ...(body.error ? { error: body.error } : {}) };
}

for (const [path, schema] of Object.entries(ENDPOINTS)) {
  describe(path, () => {
    const accepted = Object.keys(schema.shape);
    for (const [name, good, bad] of BOUNDS) {
      if (accepted.includes(name)) {
        it(`${name}: accepts ${good.join(', ')}; refuses ${bad.join(', ')} naming it`, async () => {
          for (const v of good) expect(await status(`${path}?url=acme.test&${name}=${v}`)).toEqual({ status: 200 });
          for (const v of bad) {
            const r = await status(`${path}?url=acme.test&${name}=${encodeURIComponent(v)}`);
            expect(r.status).toBe(400);
            expect(r.error).toMatch(new RegExp(`^Invalid query parameter "${name}": got "${v}", allowed: `));
          }
        });
      } else {
        it(`${name}: not a parameter here, refused by name`, async () => {
          const r = await status(`${path}?url=acme.test&${name}=1`);
          expect(r.status).toBe(400);
          expect(r.error).toBe(`Unknown query parameter "${name}"; this endpoint accepts ${accepted.join(', ')}`);
        });
      }
    }

    it('url: required; 2048 characters accepted, 2049 refused; http:// prepended; only http(s)', async () => {
      expect(await status(path)).toMatchObject({ status: 400, error: expect.stringMatching(/^Missing query parameter "url"/) });
      const long = `https://acme.test/${'p'.repeat(2048 - 'https://acme.test/'.length)}`;
      expect(long.length).toBe(2048);
      expect(await status(`${path}?url=${encodeURIComponent(long)}`)).toEqual({ status: 200 });
      expect(fakes.calls.render.at(-1)?.url).toBe(long);
      expect(await status(`${path}?url=${encodeURIComponent(`${long}p`)}`)).toMatchObject({
        status: 400,
        error: expect.stringMatching(/^Invalid query parameter "url": got .*\(2049 characters\)/),
      });
      expect(await status(`${path}?url=acme.test%2Fabout`)).toEqual({ status: 200 });
      expect(fakes.calls.render.at(-1)?.url).toBe('http://acme.test/about');
      expect(await status(`${path}?url=${encodeURIComponent('gopher://acme.test')}`)).toMatchObject({
        status: 400,
        error: expect.stringMatching(/scheme "gopher:" is not allowed/),
      });
      expect(await status(`${path}?url=acme.test&url=acme.test`)).toMatchObject({
        status: 400,
        error: 'Repeated query parameter "url" (2 times): give each parameter once',
      });
      expect(await status(`${path}?url=acme.test&bogus=1`)).toMatchObject({ status: 400, error: expect.stringMatching(/^Unknown query parameter "bogus"/) });
    });
  });
}

it('none of the refused requests cost anything', async () => {
  const k = await h.getKey(keyId);
  expect(k.pending).toEqual([]);
});

describe('targets that can only be internal', () => {
  it('a localhost or literal private URL is a 400 that says why without naming an address, costs nothing and never reaches the renderer', async () => {
    const before = (await h.getKey(keyId)).credits_used;
    const renders = fakes.calls.render.length;
    for (const target of [
      'localhost',
      'http://localhost:8080/admin',
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data/',
      '10.0.0.7',
    ]) {
      const res = await h.app.inject({ url: `/enrich?url=${encodeURIComponent(target)}`, headers: { 'x-api-key': key } });
      expect(res.statusCode).toBe(400);
      const error = ErrorEnvelopeSchema.parse(res.json()).error;
      expect(error).toBe(
        'Invalid query parameter "url": its host is a private or loopback address, which cannot be enriched; give a public http:// or https:// URL',
      );
      expect(res.body).not.toContain('127.0.0.1');
    }
    expect(fakes.calls.render.length).toBe(renders);
    expect((await h.getKey(keyId)).credits_used).toBe(before);
  });
});
