/**
 * Every common logo placement, through the real renderer (Chromium) and the real brand analyzer,
 * and through the offline path (snapshotFromHtml): header home-link image and inline SVG, rel=icon
 * variants, manifest icons, JSON-LD and microdata logos, og:logo, and /favicon.ico when the site
 * serves one. Pages: test/fixtures/sites/logo-placements.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandData, Snapshot } from '@enrich/shared/contracts';
import { analyzeBrand } from '../../services/brand/src/analyze.ts';
import { colorsMatch } from '../eval/score-brand.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { renderRequest, startTestRenderer } from '../support/renderer-harness.ts';

const DIR = join(import.meta.dirname, '../fixtures/sites/logo-placements');
const ICO = Buffer.from('0000010001001010000001002000680400001600000000', 'hex');
const MANIFEST = JSON.stringify({
  name: 'Appish',
  icons: [
    { src: '../icons/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
  ],
});

/** The fixture pages and files; `/favicon.ico` only when `favicon` is set (one site serves it, one does not). */
function site(favicon: boolean): Server {
  const send = (res: ServerResponse, type: string, body: string | Buffer, status = 200): void => void res.writeHead(status, { 'content-type': type }).end(body);
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') return favicon ? send(res, 'image/x-icon', ICO) : send(res, 'text/html', '<h1>Not found</h1>', 404);
    if (path === '/static/site.webmanifest') return send(res, 'application/manifest+json', MANIFEST);
    const file = /^\/([\w-]+\.(html|svg))$/.exec(path)?.[1];
    if (file) {
      try {
        return send(res, file.endsWith('.svg') ? 'image/svg+xml' : 'text/html; charset=utf-8', readFileSync(join(DIR, file)));
      } catch {
        /* fall through to 404 */
      }
    }
    return send(res, 'text/html', '<h1>Not found</h1>', 404);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.2', () => {
      const a = server.address();
      resolve(`http://127.0.0.2:${typeof a === 'object' && a ? a.port : 0}`);
    }),
  );
}

const analyze = (snapshot: Snapshot): Promise<BrandData> =>
  analyzeBrand({
    requestId: '00000000-0000-4000-8000-000000000000',
    snapshot,
    screenshotUrl: '',
    options: { screenshotColors: null, css: false, html: false, javascript: false },
  });

let withFavicon: Server;
let withoutFavicon: Server;
let origin: string;
let bareOrigin: string;
const renderer = startTestRenderer();

beforeAll(async () => {
  withFavicon = site(true);
  withoutFavicon = site(false);
  origin = await listen(withFavicon);
  bareOrigin = await listen(withoutFavicon);
});

afterAll(async () => {
  await renderer.renderer.close();
  for (const s of [withFavicon, withoutFavicon]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function rendered(page: string, from = origin): Promise<{ snapshot: Snapshot; brand: BrandData }> {
  const result = await renderer.render(renderRequest(`${from}/${page}`, { visuals: true }), 30_000);
  const snapshot = result.snapshot!;
  return { snapshot, brand: await analyze(snapshot) };
}

async function offline(page: string): Promise<BrandData> {
  return analyze(snapshotFromHtml(readFileSync(join(DIR, page), 'utf8'), `${origin}/${page}`));
}

const decoded = (url: string | undefined): string => (url?.startsWith('data:') ? Buffer.from(url.split(',')[1] ?? '', 'base64').toString() : (url ?? ''));

describe('logo placements through the renderer and the brand analyzer', () => {
  it('header home-link image: primary, not the content image', async () => {
    for (const brand of [(await rendered('header-img.html')).brand, await offline('header-img.html')]) {
      expect(brand.logos.primary).toMatchObject({ url: `${origin}/green-logo.svg`, source: 'header' });
    }
  });

  it("a lazy loader's data-src behind a placeholder file: the file it names, not the placeholder", async () => {
    for (const brand of [(await rendered('lazy-file.html')).brand, await offline('lazy-file.html')]) {
      expect(brand.logos.primary).toMatchObject({ url: `${origin}/purple-logo.svg`, source: 'header' });
    }
  });

  it('header home-link inline SVG: primary, as a standalone SVG document', async () => {
    for (const brand of [(await rendered('header-svg.html')).brand, await offline('header-svg.html')]) {
      expect(brand.logos.primary).toMatchObject({ source: 'header', isSvg: true });
      expect(decoded(brand.logos.primary?.url)).toContain('id="quill-mark"');
    }
  });

  it('rel=icon variants: favicon, largest icon, largest apple-touch icon; an icon is primary when nothing else is', async () => {
    for (const brand of [(await rendered('icons.html')).brand, await offline('icons.html')]) {
      expect(brand.logos).toMatchObject({
        favicon_url: `${origin}/favicon-legacy.ico`,
        icon_url: `${origin}/icon-192.png`,
        apple_touch_icon: `${origin}/touch-180.png`,
      });
      expect(brand.logos.primary).toMatchObject({ url: `${origin}/touch-180.png`, source: 'apple-touch-icon' });
      expect(brand.logos.secondary.map((l) => l.url)).toContain(`${origin}/pinned.svg`);
    }
  });

  it('manifest icons, read through the page (the offline path has no manifest)', async () => {
    const { snapshot, brand } = await rendered('manifest.html');
    expect(snapshot.siteIcons?.manifest.map((i) => i.src)).toEqual([`${origin}/icons/icon-192.png`, `${origin}/icons/icon-512.png`]);
    expect(brand.logos.icon_url).toBe(`${origin}/icons/icon-512.png`);
    expect((await offline('manifest.html')).logos.icon_url).toBeNull();
  });

  it('JSON-LD publisher.logo (ImageObject), microdata itemprop=logo and og:logo are declared logos', async () => {
    const cases = [
      ['jsonld.html', 'blue-logo.svg', 'jsonld', '#1F4FD8'],
      ['microdata.html', 'orange-logo.svg', 'microdata', '#F5A623'],
      ['og-logo.html', 'red-logo.svg', 'og', '#D0021B'],
    ] as const;
    for (const [page, file, source, hex] of cases) {
      const { brand, snapshot } = await rendered(page);
      expect(brand.logos.primary, page).toMatchObject({ url: `${origin}/${file}`, source });
      // Not shown on the page, so rasterised by URL: its colour is the brand colour.
      const rasters = snapshot.logoRasters.map((r) => `${r.ref} ${r.width}x${r.height}`).join(', ') || 'none';
      expect(colorsMatch(brand.colors.brand_colors[0]?.hex ?? '', hex), `${page}: ${brand.colors.brand_colors.map((c) => c.hex)}; rasters: ${rasters}`).toBe(
        true,
      );
      expect((await offline(page)).logos.primary, `${page} offline`).toMatchObject({ url: `${origin}/${file}`, source });
    }
  });

  it('/favicon.ico when the site serves one and the page declares no icon, probed through the browser', async () => {
    expect((await rendered('no-icon.html')).brand.logos.favicon_url).toBe(`${origin}/favicon.ico`);
    expect((await rendered('no-icon.html', bareOrigin)).brand.logos.favicon_url).toBeNull();
    expect((await offline('no-icon.html')).logos.favicon_url).toBeNull();
  });
});

describe('one logo decision', () => {
  // Two logos of different colours on each page: the one reported as primary is the only one
  // rasterised and the one the brand colours come from, whichever of the two wins.
  it.each([
    ['two-logos-shown.html', 'red-logo.svg', '#D0021B'],
    ['two-logos-declared.html', 'blue-logo.svg', '#1F4FD8'],
  ])('%s: primary %s, colours from its raster', async (page, file, hex) => {
    const { snapshot, brand } = await rendered(page);
    expect(brand.logos.primary?.url).toBe(`${origin}/${file}`);
    const first = snapshot.logoRasters[0]!;
    expect(first.ref === `url:${origin}/${file}` || snapshot.images.some((i) => `img:${i.index}` === first.ref && i.src === `${origin}/${file}`)).toBe(true);
    expect(snapshot.logoRasters.length).toBe(1);
    expect(brand.colors.brand_colors[0]?.source).toBe('logo');
    expect(colorsMatch(brand.colors.brand_colors[0]!.hex, hex), brand.colors.brand_colors.map((c) => c.hex).join(' ')).toBe(true);
  });
});
