/**
 * The whole system as it runs with `npm start`: nats-server, five service processes, real Chromium,
 * real HTTP, a realistic site on 127.0.0.2. One /enrich is checked field by field against what a
 * person reading the page would say, and the credits it moved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { BrandResponseSchema, CompanyResponseSchema, EnrichResponseSchema, ErrorEnvelopeSchema, ScreenshotResponseSchema } from '@enrich/shared/contracts';
import { checkBrandExpectations, type BrandExpectations } from '../eval/score-brand.ts';
import { REPO_ROOT, createApiKey, startStack, type Stack } from '../../deploy/local/stack.ts';
import { freePort } from '../../deploy/local/nats-server.ts';
import { serveStatic, type StaticSite } from '../../deploy/local/static-site.ts';

let stack: Stack;
let site: StaticSite;
let key: string;
let dataDir: string;
const fixtureSites = new Map<string, StaticSite>();
const BRAND_SITES = ['brand-saas', 'brand-shop', 'brand-dark', 'brand-cssvars', 'brand-gfonts', 'brand-typekit'];
const COMPANY_SITES = ['company-acme', 'company-beispiel', 'company-terms', 'company-scripted', 'company-europa'];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'enrich-e2e-'));
  site = await serveStatic(join(REPO_ROOT, 'deploy/local/demo-site'), { host: '127.0.0.2' });
  for (const name of [...BRAND_SITES, ...COMPANY_SITES]) {
    fixtureSites.set(name, await serveStatic(join(REPO_ROOT, 'test/fixtures/sites', name), { host: '127.0.0.2' }));
  }
  stack = await startStack({
    port: await freePort(),
    dataDir,
    logs: 'files',
    env: { ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', LOG_LEVEL: 'info' },
  });
  key = (await createApiKey(stack.natsUrl, { name: 'e2e', credits: 1000, rateLimit: 1000 })).key;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await site?.close();
  await Promise.all([...fixtureSites.values()].map((f) => f.close()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = { 'x-api-key': key }) => fetch(`${stack.baseUrl}${path}`, { headers });

describe('the whole stack', () => {
  it('enriches a company site from one page load', async () => {
    const res = await get(`/enrich?url=${encodeURIComponent(site.origin + '/')}&screenshotColors=4&css=true`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const parsed = EnrichResponseSchema.parse(body);
    const d = parsed.data;
    expect(res.headers.get('x-request-id')).toBe(parsed.meta.requestId);
    expect(res.headers.get('x-credits-used')).toBe('3');
    expect(res.headers.get('x-credits-limit')).toBe('1000');

    expect(d.domain).toBe('127.0.0.2');
    // Company: the legal name from JSON-LD and the footer, the contact email, the postal address.
    expect(d.company.name).toBe('Northwind Roasters LLC');
    expect(d.company.emails).toContain('hello@northwind.example');
    expect(d.company.addresses.join(' | ')).toMatch(/1200 SE Water Ave.*Portland.*OR.*97214/);
    expect(d.company.sources).toContain('jsonld');
    // Classification: a coffee roaster is Food & Drink.
    expect(d.classification.iab_parent_id).toBe('IAB8');
    expect(d.classification.category).toBe('Food & Drink');
    expect(d.classification.description.length).toBeGreaterThan(20);
    // Brand: the header logo (not the favicon), the burnt-orange accent, social profiles.
    expect(d.logos.primary?.url).toMatch(/logo\.svg$/);
    expect(d.logos.favicon_url).toMatch(/favicon\.svg$/);
    expect(d.colors.brand_colors.length).toBeGreaterThan(0);
    expect(d.colors.brand_colors.map((c) => c.hex)).toContain('#C2410C');
    expect(d.colors.screenshot_colors.length).toBe(4);
    expect(d.images.screenshot_colors).toEqual(d.colors.screenshot_colors);
    expect(d.colors.code_colors.css).toContain('#C2410C');
    expect(d.colors.code_colors.html).toEqual([]);
    expect(d.social_links.instagram).toBe('https://www.instagram.com/northwindroasters');
    expect(d.social_links.linkedin).toBe('https://www.linkedin.com/company/northwind-roasters');
    expect(d.social_links.twitter).toBeNull();
    expect(d.images.og_image).toBe(`${site.origin}/hero.svg`);

    // The screenshot URL serves the image the request asked for (jpeg, 1440x900 by default).
    const shot = await fetch(d.images.screenshot_url);
    expect(shot.status).toBe(200);
    const meta = await sharp(Buffer.from(await shot.arrayBuffer())).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([1440, 900]);
  });

  it('takes a screenshot in the format and size asked for', async () => {
    const res = await get(`/screenshot?url=${encodeURIComponent(site.origin + '/')}&format=webp&width=800&height=600`);
    const body = ScreenshotResponseSchema.parse(await res.json());
    expect(body.data.format).toBe('webp');
    expect(body.data.viewport).toEqual({ width: 800, height: 600 });
    const img = await sharp(Buffer.from(await (await fetch(body.data.screenshot_url)).arrayBuffer())).metadata();
    expect([img.format, img.width, img.height]).toEqual(['webp', 800, 600]);
  });

  it('charges nothing for a refused URL and says why', async () => {
    const before = await get(`/classify?url=${encodeURIComponent('http://127.0.0.1:1/')}`);
    const body = ErrorEnvelopeSchema.parse(await before.json());
    expect(before.status).toBe(400);
    // Why, in general terms; never the address (issue 17).
    expect(body.error).toMatch(/private or loopback address/);
    expect(body.error).not.toContain('127.0.0.1');
    // The next paid request shows the refused one cost nothing: 3 (enrich) + 1 (screenshot) so far, + 1.
    const ok = await get(`/classify?url=${encodeURIComponent(site.origin + '/')}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-credits-used')).toBe('5');
  });
});

const expectedOf = <T>(site: string): T => JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/sites', site, 'expected.json'), 'utf8')) as T;

describe('brand fixture sites through the browser', () => {
  it.each(BRAND_SITES)('%s: the analysis matches what a designer would say', async (name) => {
    const origin = fixtureSites.get(name)!.origin;
    const res = await get(`/brand?url=${encodeURIComponent(origin + '/')}&css=true`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(200);
    const data = BrandResponseSchema.parse(body).data;
    expect(checkBrandExpectations(expectedOf<BrandExpectations>(name), data)).toEqual([]);
  });
});

interface CompanyExpected {
  name: string;
  emails: string[];
  addresses: string[];
  pages: string[];
  sourcesInclude?: string[];
}

describe('company fixture sites through the browser', () => {
  it.each(
    COMPANY_SITES.flatMap(
      (s) =>
        [
          [s, false],
          [s, true],
        ] as const,
    ),
  )('%s (follow_links=%s)', async (name, follow) => {
    const origin = fixtureSites.get(name)!.origin;
    const both = expectedOf<{ withoutFollow: CompanyExpected & { followUp: string[] }; withFollow: CompanyExpected }>(name);
    // The edge follows links only when the home page lacks data (followUp non-empty).
    const expected = follow && both.withoutFollow.followUp.length > 0 ? both.withFollow : both.withoutFollow;
    const res = await get(`/company?url=${encodeURIComponent(origin + '/')}&follow_links=${follow}`);
    const body = await res.json();
    expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(200);
    const data = CompanyResponseSchema.parse(body).data;
    expect(data.name).toBe(expected.name);
    expect(data.emails).toEqual(expected.emails);
    expect(data.addresses).toEqual(expected.addresses);
    // Every page the analyzer proposed is rendered and listed; the ones holding the data must be there.
    const pages = data.pages.map((p) => new URL(p).pathname);
    expect(pages[0]).toBe('/');
    expect(pages).toEqual(expect.arrayContaining(expected.pages));
    for (const src of expected.sourcesInclude ?? []) expect(data.sources).toContain(src);
    expect(data.confidence).toBeGreaterThan(0);
  });
});
