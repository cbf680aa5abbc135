/**
 * Integration (real Chromium): the logo raster (rasterizeElement with the page's DevTools session)
 * keeps the logo's transparency, is scaled into 512 x 512 by the browser, captures an element below
 * the fold (a loading=lazy image there once it has arrived), cuts an element away from the viewport's
 * corner out of the capture (a scrolled page too), and leaves the page's default background as it
 * was for the captures after it.
 */
import { createServer, type Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRendererConfig } from './config.ts';
import { rasterizeElement } from './screenshot.ts';

const PAGE = `<!DOCTYPE html><html><body style="margin:0">
<svg id="round" width="100" height="100" viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" fill="rgb(200,0,0)"/></svg>
<div id="wide" style="width:1024px;height:256px;background:rgb(0,0,200)"></div>
<div style="height:3000px"></div>
<div id="low" style="width:80px;height:40px;background:rgb(0,150,0)"></div>
</body></html>`;

let browser: Browser;
let page: Page;
let server: Server;
let origin: string;

beforeAll(async () => {
  // A logo image that takes 300 ms to arrive, below the fold with loading=lazy.
  const logo = await sharp({ create: { width: 80, height: 40, channels: 4, background: { r: 0, g: 0, b: 180, alpha: 1 } } })
    .png()
    .toBuffer();
  server = createServer((req, res) => {
    if (req.url === '/logo.png') return void setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(logo), 300);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<!DOCTYPE html><html><body style="margin:0"><div style="height:4000px"></div><img id="lazy" src="/logo.png" loading="lazy" width="80" height="40"></body></html>',
      );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await chromium.launch({ executablePath: loadRendererConfig({}).CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent(PAGE);
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

async function pixels(png: string): Promise<{ at(x: number, y: number): number[]; width: number; height: number }> {
  const { data, info } = await sharp(Buffer.from(png, 'base64')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x, y) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)],
  };
}

describe('logo raster through the DevTools session', () => {
  it('is transparent where the page paints nothing behind the logo, and the page background is restored after', async () => {
    const session = await page.context().newCDPSession(page);
    const raster = await rasterizeElement((await page.$('#round'))!, 2_000, session);
    expect(raster).toMatchObject({ width: 100, height: 100 });
    const px = await pixels(raster!.png);
    expect(px.at(50, 50)).toEqual([200, 0, 0, 255]);
    expect(px.at(2, 2)[3]).toBe(0);
    // The next capture of the page has its white default background again.
    const after = await sharp(await page.screenshot({ clip: { x: 0, y: 0, width: 4, height: 4 } }))
      .ensureAlpha()
      .raw()
      .toBuffer();
    expect([...after.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
  });

  it('is scaled by the browser to fit 512 x 512, and captures an element below the fold', async () => {
    const session = await page.context().newCDPSession(page);
    const wide = await rasterizeElement((await page.$('#wide'))!, 2_000, session);
    expect(wide).toMatchObject({ width: 512, height: 128 });
    expect((await pixels(wide!.png)).at(256, 64)).toEqual([0, 0, 200, 255]);
    const low = await rasterizeElement((await page.$('#low'))!, 2_000, session);
    expect(low).toMatchObject({ width: 80, height: 40 });
    expect((await pixels(low!.png)).at(40, 20)).toEqual([0, 150, 0, 255]);
  });

  it("reaches an element the collector registered by its index, with Playwright's element handle only to scroll to one below the fold", async () => {
    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await other.setContent(PAGE);
      await other.evaluate(() => {
        (window as unknown as Record<symbol, Record<string, Element[]>>)[Symbol.for('enrich.elements')] = {
          svg: [document.getElementById('round')!],
          img: [document.getElementById('low')!],
        };
      });
      const session = await other.context().newCDPSession(other);
      // Playwright's handles (evaluateHandle of an element) are counted: inside the viewport none is made.
      const handles: unknown[] = [];
      const evaluateHandle = other.evaluateHandle.bind(other);
      (other as unknown as { evaluateHandle: typeof evaluateHandle }).evaluateHandle = ((fn: never, arg: never) => {
        handles.push(arg);
        return evaluateHandle(fn, arg);
      }) as typeof evaluateHandle;
      const round = await rasterizeElement({ page: other, list: 'svg', index: 0 }, 2_000, session);
      expect(round).toMatchObject({ width: 100, height: 100 });
      expect((await pixels(round!.png)).at(50, 50)).toEqual([200, 0, 0, 255]);
      expect(handles).toEqual([]);
      const low = await rasterizeElement({ page: other, list: 'img', index: 0 }, 2_000, session);
      expect(low).toMatchObject({ width: 80, height: 40 });
      expect((await pixels(low!.png)).at(40, 20)).toEqual([0, 150, 0, 255]);
      expect(handles).toHaveLength(1);
      expect(await rasterizeElement({ page: other, list: 'svg', index: 5 }, 2_000, session)).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('cuts an element away from the corner out of the capture, on a scrolled page too', async () => {
    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await other.setContent(`<!DOCTYPE html><html><body style="margin:0;height:3000px">
<div style="position:absolute;left:0;top:0;width:400px;height:400px;background:rgb(200,0,0)"></div>
<div id="logo" style="position:absolute;left:500px;top:260px;width:120px;height:30px;background:rgb(0,150,0)"></div>
</body></html>`);
      const session = await other.context().newCDPSession(other);
      // Every capture's clip starts at the viewport's own corner: a clip elsewhere makes the browser
      // move the viewport first, and under load it captured a frame from before the move.
      const clips: Array<{ x: number; y: number }> = [];
      const send = session.send.bind(session) as (method: string, params?: object) => Promise<unknown>;
      (session as unknown as { send: typeof send }).send = (method, params) => {
        if (method === 'Page.captureScreenshot') clips.push((params as { clip: { x: number; y: number } }).clip);
        return send(method, params);
      };
      const at = await rasterizeElement((await other.$('#logo'))!, 2_000, session);
      expect(at).toMatchObject({ width: 120, height: 30 });
      expect((await pixels(at!.png)).at(60, 15)).toEqual([0, 150, 0, 255]);
      await other.evaluate(() => window.scrollTo(0, 200));
      const scrolled = await rasterizeElement((await other.$('#logo'))!, 2_000, session);
      expect(scrolled).toMatchObject({ width: 120, height: 30 });
      const px = await pixels(scrolled!.png);
      expect(px.at(1, 1)).toEqual([0, 150, 0, 255]);
      expect(px.at(118, 28)).toEqual([0, 150, 0, 255]);
      expect(clips.map((c) => [c.x, c.y])).toEqual([
        [0, 0],
        [0, 200],
      ]);
    } finally {
      await other.close();
    }
  });

  it('waits for a loading=lazy image it scrolls to before capturing it', async () => {
    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await other.goto(`${origin}/`);
      const session = await other.context().newCDPSession(other);
      const raster = await rasterizeElement((await other.$('#lazy'))!, 2_000, session);
      expect(raster).toMatchObject({ width: 80, height: 40 });
      expect((await pixels(raster!.png)).at(40, 20)).toEqual([0, 0, 180, 255]);
    } finally {
      await other.close();
    }
  });
});
