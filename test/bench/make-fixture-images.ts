/**
 * Regenerates the raster images of the benchmark fixture sites: photo-like JPEGs painted on a canvas
 * in Chromium (seeded gradients, soft shapes and grain, so they compress and decode like photos, not
 * like flat colour). The outputs are committed; run this only to change them:
 *   node test/bench/make-fixture-images.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';

const SITES = join(import.meta.dirname, '../fixtures/sites');

const images: Array<[string, number, number, number]> = [
  ['bench-saas/img/hero.jpg', 1200, 640, 11],
  ['bench-saas/img/og.jpg', 1200, 630, 12],
  ...[1, 2, 3].map((i): [string, number, number, number] => [`bench-saas/img/avatar-${i}.jpg`, 96, 96, 20 + i]),
  ...[1, 2, 3, 4, 5, 6].map((i): [string, number, number, number] => [`bench-news/img/photo-${i}.jpg`, 960, 540, 30 + i]),
  ...[1, 2, 3, 4].map((i): [string, number, number, number] => [`bench-news/img/thumb-${i}.jpg`, 240, 160, 40 + i]),
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((i): [string, number, number, number] => [`bench-shop/img/product-${i}.jpg`, 400, 400, 50 + i]),
  ['bench-shop/img/banner.jpg', 1400, 360, 60],
  ...[1, 2, 3].map((i): [string, number, number, number] => [`bench-local/img/dish-${i}.jpg`, 600, 400, 70 + i]),
  ['bench-local/img/interior.jpg', 1200, 700, 80],
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
for (const [file, w, h, seed] of images) {
  const dataUrl = await page.evaluate(
    ({ w, h, seed }) => {
      let s = seed * 9301 + 49297;
      const rnd = (): number => (s = (s * 9301 + 49297) % 233280) / 233280;
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      const g = c.getContext('2d')!;
      const hue = Math.floor(rnd() * 360);
      const bg = g.createLinearGradient(0, 0, w, h);
      bg.addColorStop(0, `hsl(${hue},45%,${30 + rnd() * 30}%)`);
      bg.addColorStop(1, `hsl(${(hue + 40 + rnd() * 80) % 360},50%,${20 + rnd() * 40}%)`);
      g.fillStyle = bg;
      g.fillRect(0, 0, w, h);
      g.filter = `blur(${Math.max(2, Math.round(w / 60))}px)`;
      for (let i = 0; i < 40; i++) {
        const r = (0.05 + rnd() * 0.3) * Math.max(w, h);
        const rg = g.createRadialGradient(rnd() * w, rnd() * h, 0, rnd() * w, rnd() * h, r);
        rg.addColorStop(0, `hsla(${(hue + rnd() * 120) % 360},${40 + rnd() * 40}%,${20 + rnd() * 60}%,0.6)`);
        rg.addColorStop(1, 'hsla(0,0%,0%,0)');
        g.fillStyle = rg;
        g.fillRect(0, 0, w, h);
      }
      g.filter = 'none';
      const img = g.getImageData(0, 0, w, h);
      for (let i = 0; i < img.data.length; i += 4) {
        const n = (rnd() - 0.5) * 18;
        img.data[i] = img.data[i]! + n;
        img.data[i + 1] = img.data[i + 1]! + n;
        img.data[i + 2] = img.data[i + 2]! + n;
      }
      g.putImageData(img, 0, 0);
      return c.toDataURL('image/jpeg', 0.7);
    },
    { w, h, seed },
  );
  const out = join(SITES, file);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, Buffer.from(dataUrl.split(',')[1]!, 'base64'));
}
await browser.close();
console.log(`wrote ${images.length} images under ${SITES}`);
