/**
 * The playground at `/`, driven in real Chromium against the real stack and the demo site, as a
 * person would use it: type the URL and the key, press Enrich, see the swatches, the logo, the
 * company and the category. The key goes to the API's origin only and stays in session storage.
 * With PLAYGROUND_SCREENSHOT=<file> it also saves a picture of the page (docs/playground.png).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, createApiKey, startStack, type Stack } from '../../deploy/local/stack.ts';
import { freePort } from '../../deploy/local/nats-server.ts';
import { serveStatic, type StaticSite } from '../../deploy/local/static-site.ts';
import { DEFAULT_CHROMIUM_PATH } from '../../services/renderer/src/config.ts';

let stack: Stack;
let site: StaticSite;
let dataDir: string;
let browser: Browser;
let key: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'enrich-playground-'));
  site = await serveStatic(join(REPO_ROOT, 'deploy/local/demo-site'), { host: '127.0.0.2' });
  stack = await startStack({ port: await freePort(), dataDir, logs: 'files', env: { ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', LOG_LEVEL: 'warn' } });
  key = (await createApiKey(stack.natsUrl, { name: 'playground', credits: 100, rateLimit: 100 })).key;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Every request the page makes that carries the key, and any CSP violation it reports. */
function watch(page: Page): { keyed: string[]; violations: string[] } {
  const seen = { keyed: [] as string[], violations: [] as string[] };
  page.on('request', (req) => {
    if (req.headers()['x-api-key'] !== undefined) seen.keyed.push(new URL(req.url()).origin);
  });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) seen.violations.push(msg.text());
  });
  return seen;
}

describe('the playground', () => {
  it('loads without a key, with a CSP, as HTML, CSS and a script', async () => {
    const page = await fetch(`${stack.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect((await fetch(`${stack.baseUrl}/playground/playground.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${stack.baseUrl}/playground/playground.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('enriches the demo site: swatches with names and percentages, the logo, company and category', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const seen = watch(page);
    await page.goto(`${stack.baseUrl}/`);
    await page.getByLabel('URL').fill(`${site.origin}/`);
    await page.getByLabel('API key').fill(key);
    // The parameters come from /openapi.json: integers as number inputs, booleans as checkboxes.
    await page.getByLabel('screenshotColors').waitFor();
    expect(await page.getByLabel('screenshotColors').getAttribute('type')).toBe('number');
    expect(await page.getByLabel('full_page').getAttribute('type')).toBe('checkbox');
    await page.getByRole('button', { name: 'Enrich' }).click();

    const brand = page.getByRole('list', { name: 'Brand colors' });
    await brand.getByRole('listitem').first().waitFor({ timeout: 90_000 });
    const tia = brand.locator('[data-hex="#C2410C"]');
    expect(await tia.innerText()).toMatch(/Tia Maria\s+#C2410C · \d+%/);
    expect(await page.getByRole('list', { name: 'Screenshot colors' }).getByRole('listitem').count()).toBe(6);

    const logo = page.getByRole('img', { name: /^Primary logo/ });
    expect(await logo.getAttribute('src')).toBe(`${site.origin}/logo.svg`);
    // Loaded and decodable, not just referenced (decode() rejects for a broken image).
    expect(await logo.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBeGreaterThan(0);
    const shot = page.getByRole('img', { name: /^Screenshot of/ });
    expect(await shot.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth))).toBe(1440);

    expect(await page.getByRole('region', { name: 'Company' }).innerText()).toContain('Northwind Roasters LLC');
    expect(await page.getByRole('region', { name: 'Category' }).innerText()).toContain('Food & Drink › Coffee/Tea');
    expect(await page.getByRole('region', { name: 'Fonts' }).innerText()).toContain('Georgia');
    expect(await page.getByRole('region', { name: 'Social links' }).innerText()).toContain('https://www.instagram.com/northwindroasters');
    expect(JSON.parse(await page.locator('#json').innerText())).toMatchObject({ success: true, data: { company: { name: 'Northwind Roasters LLC' } } });
    expect(await page.locator('#curl').innerText()).toBe(
      `curl -s -H 'X-API-Key: ${key}' '${stack.baseUrl}/enrich?url=${encodeURIComponent(`${site.origin}/`)}&screenshotColors=6'`,
    );

    // The key went to the API's origin only, and stays in this tab's storage unless remembered.
    expect(seen.keyed).toEqual([stack.baseUrl]);
    expect(seen.violations).toEqual([]);
    expect(await page.evaluate(() => [sessionStorage.getItem('enrich-playground-key'), localStorage.getItem('enrich-playground-key')])).toEqual([key, null]);

    const out = process.env.PLAYGROUND_SCREENSHOT;
    if (out) await page.screenshot({ path: resolve(REPO_ROOT, out), fullPage: true });
    await context.close();
  }, 120_000);

  it("shows the API's error for a wrong key", async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.baseUrl}/`);
    await page.getByLabel('URL').fill(`${site.origin}/`);
    await page.getByLabel('API key').fill('ek_wrong');
    await page.getByRole('button', { name: 'Enrich' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/^401: Invalid API key \(request [0-9a-f-]{36}\)$/);
    await page.close();
  });
});
