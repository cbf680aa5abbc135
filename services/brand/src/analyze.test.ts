import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { BrandDataSchema, type BrandRequest, type Snapshot } from '@enrich/shared/contracts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { analyzeBrand } from './analyze.ts';
import { canvas, fillRect } from './colors/test-images.test-support.ts';
import type { RgbaImage } from './colors/pixels.ts';

async function png(img: RgbaImage): Promise<{ png: string; width: number; height: number }> {
  const buf = await sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: 4 } })
    .png()
    .toBuffer();
  return { png: buf.toString('base64'), width: img.width, height: img.height };
}

const HTML = `<!doctype html><html><head><title>Acme</title><meta name="theme-color" content="#0EA5E9">
<style>:root{--brand:#5b3df5} .btn{background:var(--brand)} body{color:#111827}</style></head>
<body><header><a href="/"><svg viewBox="0 0 100 30" aria-label="Acme logo"><rect width="30" height="30" fill="#5B3DF5"/></svg></a></header>
<main><p style="color:#e11d48">Sale</p></main><footer><a href="https://github.com/acme">GitHub</a></footer></body></html>`;

async function request(options: Partial<BrandRequest['options']>, edit?: (s: Snapshot) => Promise<void>): Promise<BrandRequest> {
  const snapshot = snapshotFromHtml(HTML, 'https://acme.io/');
  await edit?.(snapshot);
  return {
    requestId: '6b0f8b4e-3f5e-4c44-9a4b-1f1f3c3f5e01',
    snapshot,
    screenshotUrl: 'http://127.0.0.1:9000/shots/abc.jpeg',
    options: { screenshotColors: null, css: false, html: false, javascript: false, ...options },
  };
}

describe('analyzeBrand', () => {
  it('takes brand colors from the raster of the chosen logo', async () => {
    const logo = canvas(100, 30, [0, 0, 0, 0]);
    fillRect(logo, 0, 0, 30, 30, [91, 61, 245]);
    fillRect(logo, 40, 5, 60, 20, [17, 24, 39]);
    const decoy = canvas(40, 40, [0, 200, 0]);
    const data = await analyzeBrand(
      await request({}, async (s) => {
        s.logoRasters = [
          { ref: 'img:7', ...(await png(decoy)) },
          { ref: 'svg:0', ...(await png(logo)) },
        ];
      }),
    );
    expect(BrandDataSchema.parse(data)).toEqual(data);
    expect(data.colors.brand_colors.map((c) => [c.hex, c.source])).toEqual([
      ['#5B3DF5', 'logo'],
      ['#111827', 'logo'],
    ]);
    expect(data.social_links.github).toBe('https://github.com/acme');
    expect(data.images.screenshot_url).toBe('http://127.0.0.1:9000/shots/abc.jpeg');
  });

  it('falls back to page accents (source screenshot) without a logo raster', async () => {
    const data = await analyzeBrand(await request({}));
    expect(data.colors.brand_colors[0]).toMatchObject({ source: 'screenshot' });
    expect(data.colors.brand_colors.map((c) => c.hex)).toContain('#5B3DF5');
    expect(data.colors.brand_colors.map((c) => c.hex)).toContain('#0EA5E9');
  });

  it('keeps the shape when nothing optional is asked: empty arrays, never missing keys', async () => {
    const data = await analyzeBrand(
      await request({}, async (s) => {
        s.thumbnail = await png(canvas(32, 32, [255, 255, 255]));
      }),
    );
    expect(data.colors.screenshot_colors).toEqual([]);
    expect(data.images.screenshot_colors).toEqual([]);
    expect(data.colors.code_colors).toEqual({ css: [], html: [], javascript: [] });
  });

  it('fills screenshot and code colors when asked', async () => {
    const data = await analyzeBrand(
      await request({ screenshotColors: 3, css: true, html: true, javascript: true }, async (s) => {
        const thumb = canvas(64, 40, [255, 255, 255]);
        fillRect(thumb, 0, 0, 64, 8, [15, 23, 42]);
        fillRect(thumb, 10, 20, 20, 8, [91, 61, 245]);
        s.thumbnail = await png(thumb);
        s.scripts = [{ url: null, text: 'chart.color = "#22C55E"' }];
      }),
    );
    expect(data.colors.screenshot_colors).toHaveLength(3);
    expect(data.images.screenshot_colors).toEqual(data.colors.screenshot_colors);
    expect(data.colors.code_colors).toEqual({ css: ['#5B3DF5', '#111827'], html: ['#5B3DF5', '#E11D48'], javascript: ['#22C55E'] });
  });

  it('survives an undecodable raster and thumbnail', async () => {
    const data = await analyzeBrand(
      await request({ screenshotColors: 4 }, async (s) => {
        s.thumbnail = { png: Buffer.from('not a png').toString('base64'), width: 10, height: 10 };
        s.logoRasters = [{ ref: 'svg:0', png: Buffer.from('junk').toString('base64'), width: 5, height: 5 }];
      }),
    );
    expect(data.colors.screenshot_colors).toEqual([]);
    expect(data.colors.brand_colors[0]!.source).toBe('screenshot');
  });
});
