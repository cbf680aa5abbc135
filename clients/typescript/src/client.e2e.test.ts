/**
 * The README's three calls against the real stack (nats-server, the five services, Chromium) and the
 * demo site: what the typed client returns is what the contract says and what the page shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyResponseDataSchema, EnrichDataSchema, ScreenshotDataSchema } from '@enrich/shared/contracts';
import { REPO_ROOT, createApiKey, startStack, type Stack } from '../../../deploy/local/stack.ts';
import { freePort } from '../../../deploy/local/nats-server.ts';
import { serveStatic, type StaticSite } from '../../../deploy/local/static-site.ts';
import { EnrichApiError, EnrichClient } from './index.ts';

let stack: Stack;
let site: StaticSite;
let dataDir: string;
let client: EnrichClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'enrich-client-e2e-'));
  site = await serveStatic(join(REPO_ROOT, 'deploy/local/demo-site'), { host: '127.0.0.2' });
  stack = await startStack({ port: await freePort(), dataDir, logs: 'files', env: { ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', LOG_LEVEL: 'warn' } });
  const { key } = await createApiKey(stack.natsUrl, { name: 'client-e2e', credits: 100, rateLimit: 100 });
  client = new EnrichClient({ baseUrl: stack.baseUrl, apiKey: key, timeoutMs: 45_000 });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('@enrich/client against the running stack', () => {
  it('enrich: brand, company and category of the demo site', async () => {
    const data = await client.enrich({ url: `${site.origin}/`, screenshotColors: 4 });
    EnrichDataSchema.parse(data);
    expect(data.company.name).toBe('Northwind Roasters LLC');
    expect(data.colors.brand_colors.map((c) => c.hex)).toContain('#C2410C');
    expect(data.colors.screenshot_colors).toHaveLength(4);
    expect(data.logos.primary?.url).toBe(`${site.origin}/logo.svg`);
    expect(data.classification.category).toBe('Food & Drink');
  });

  it('screenshot: a PNG of the requested viewport, served where the answer says', async () => {
    const shot = await client.screenshot({ url: `${site.origin}/`, width: 800, height: 600, format: 'png' });
    ScreenshotDataSchema.parse(shot);
    expect(shot).toMatchObject({ viewport: { width: 800, height: 600 }, format: 'png', full_page: false });
    const image = await fetch(shot.screenshot_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('company: the legal name, email and address', async () => {
    const company = await client.company({ url: `${site.origin}/` });
    CompanyResponseDataSchema.parse(company);
    expect(company).toMatchObject({ name: 'Northwind Roasters LLC', emails: ['hello@northwind.example'] });
    expect(company.addresses.join(' | ')).toMatch(/1200 SE Water Ave.*Portland/);
  });

  it('batch: submits, reports progress while polling, and answers every item in order', async () => {
    const seen: string[] = [];
    const { batch, results } = await client.batch(
      { endpoint: 'classify', items: [{ url: `${site.origin}/` }, { url: `${site.origin}/missing-page` }, { url: `${site.origin}/` }] },
      { pollIntervalMs: 300, onProgress: (s) => seen.push(`${s.status}:${s.counts.succeeded + s.counts.failed}`) },
    );
    // The missing page answers HTTP 404: that is not the site, so the item fails as the single
    // endpoint would (502, uncharged), and the batch still ends done.
    expect(batch).toMatchObject({ status: 'done', counts: { total: 3, succeeded: 2, failed: 1, pending: 0 }, creditsCharged: 2 });
    expect(results.map((r) => [r.index, r.state])).toEqual([
      [0, 'succeeded'],
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
    expect(results[1]).toMatchObject({ status: 502, error: expect.stringContaining('404') });
    expect(results[0]?.data).toMatchObject({ category: 'Food & Drink' });
    expect(seen.at(-1)).toBe('done:3'); // succeeded + failed
    expect(seen.length).toBeGreaterThan(1);
  });

  it('a wrong key is a typed 401 with the request id', async () => {
    const wrong = new EnrichClient({ baseUrl: stack.baseUrl, apiKey: 'ek_not-a-key' });
    const err = await wrong.classify({ url: `${site.origin}/` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnrichApiError);
    expect(err).toMatchObject({ status: 401, message: 'Invalid API key', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });
});
