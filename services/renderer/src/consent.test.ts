/**
 * Integration (real Chromium): consent banners of the common CMPs are neither in the screenshot nor
 * in what the extractors get, and nothing is accepted on the visitor's behalf.
 */
import { join } from 'node:path';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotSchema } from '@enrich/shared/contracts';
import { startTestTelemetry } from '@enrich/shared/telemetry';
import { startWallSites, type WallSites } from '../../../test/support/wall-sites.ts';
import { renderRequest, startTestRenderer } from '../../../test/support/renderer-harness.ts';

let sites: WallSites;
const telemetry = startTestTelemetry('consent-test');
const r = startTestRenderer({ RESOLVE_OVERRIDES: '*=127.0.0.2' });

beforeAll(async () => {
  sites = await startWallSites();
  await r.renderer.pool.warm();
});
afterAll(async () => {
  await r.renderer.close();
  await sites?.close();
  await telemetry.shutdown();
});

async function pixel(file: string, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 3;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

describe('consent banners', () => {
  it('are removed from the snapshot and the screenshot, without clicking accept', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/walls/ok-consent-banners`, { screenshot: { format: 'png', fullPage: false }, visuals: true }));
    const snap = SnapshotSchema.parse(result.snapshot);
    for (const marker of [
      'ONETRUST-BANNER',
      'COOKIEBOT-DIALOG',
      'QUANTCAST-CMP',
      'GENERIC-BANNER',
      'GENERIC-FR',
      'GENERIC-IT',
      'GENERIC-PL',
      'DIDOMI-NOTICE',
      'TRUSTARC-BANNER',
      'OSANO-DIALOG',
      'COOKIEYES-BANNER',
      'USERCENTRICS-BANNER',
      'id="usercentrics-root"',
      'LATE-ONETRUST-BANNER',
    ]) {
      expect(snap.html).not.toContain(marker);
      expect(snap.text.visible).not.toContain(marker);
    }
    expect(snap.html).toContain('Built for the fjords');
    expect(snap.text.visible).toContain('Waterproof jackets');
    // A fixed bar that talks about (edible) cookies but asks for no consent is part of the page.
    expect(snap.text.visible).toContain('PROMO-BAR');
    expect(snap.anchors.map((a) => a.text)).not.toContain('Cookie Policy');
    // The banners' own colors (green, magenta, orange) are not sampled as the page's.
    const colors = snap.styles.colors.map((c) => c.value);
    for (const banner of ['rgb(0, 200, 0)', 'rgb(200, 0, 200)', 'rgb(255, 140, 0)']) expect(colors).not.toContain(banner);

    const file = join(r.config.SCREENSHOT_DIR, result.screenshot!.url.slice(r.config.ASSETS_BASE_URL.length + 1));
    // The page re-added a OneTrust banner the moment it was removed; it was removed again (not in the HTML above, nor at y=350 below).
    // Where the OneTrust bar, the Cookiebot dialog, the generic banner, the Quantcast veil and Usercentrics' shadow-root bar were: the page's own background.
    for (const [x, y] of [
      [640, 760],
      [200, 240],
      [1200, 90],
      [640, 400],
      [900, 350],
      [200, 780],
    ] as const) {
      expect(await pixel(file, x, y)).toEqual([250, 250, 250]);
    }
    // Every accept button would have called /consent.
    expect(sites.hits('/consent')).toBe(0);
  });

  it("keeps fixed layers that are the page's own: a footer that links its cookie policy, a content pane that mentions privacy settings", async () => {
    const snap = SnapshotSchema.parse((await r.render(renderRequest(`${sites.origin}/walls/ok-fixed-layers`))).snapshot);
    expect(snap.text.visible).toContain('PANE-TEXT');
    expect(snap.text.visible).toContain('FOOTER-TEXT');
    expect(snap.anchors.map((a) => a.href)).toContain('mailto:sales@gearworks.example');
    // A chat widget is hidden; a section of the page's own that shares a widget's generic id is not.
    expect(snap.text.visible).not.toContain('INTERCOM-CHAT');
    expect(snap.text.visible).toContain('LAUNCHER-SECTION');
  });
});

describe('page loaders', () => {
  const shotFile = (url: string): string => join(r.config.SCREENSHOT_DIR, url.slice(r.config.ASSETS_BASE_URL.length + 1));
  const shot = { screenshot: { format: 'png' as const, fullPage: false }, visuals: true };
  /** The `render.overlays` span's loader attributes of the last render. */
  const loaderSpan = async (): Promise<unknown[]> => {
    await telemetry.forceFlush();
    const span = telemetry.exporter.getFinishedSpans().find((s: ReadableSpan) => s.name === 'render.overlays');
    return [span?.attributes.loader, typeof span?.attributes['loader.wait_ms']];
  };

  it("waits for a theme's preloader that the page fades out after load, then reads and captures the page it revealed", async () => {
    telemetry.exporter.reset();
    const result = await r.render(renderRequest(`${sites.origin}/walls/ok-preloader`, shot));
    expect(await loaderSpan()).toEqual(['gone', 'number']);
    const snap = SnapshotSchema.parse(result.snapshot);
    expect(snap.title).toBe('Harbour Lights Studio (ready)'); // the page's own script ran: it was waited for
    expect(await pixel(shotFile(result.screenshot!.url), 640, 400)).toEqual([200, 30, 30]);
    expect(snap.html).not.toContain('data-enrich-loader');
  });

  it('hides a loader that never goes (its script never ran), so the capture shows the page', async () => {
    telemetry.exporter.reset();
    const result = await r.render(renderRequest(`${sites.origin}/walls/ok-stuck-preloader`, shot));
    expect(await loaderSpan()).toEqual(['hidden', 'number']);
    expect(await pixel(shotFile(result.screenshot!.url), 640, 400)).toEqual([200, 30, 30]);
    expect(SnapshotSchema.parse(result.snapshot).text.headings).toContainEqual({ level: 1, text: 'Copper Kettle Bakery' });
  });

  it('keeps a full-screen slider that shows a picture, though a child is named like a loader', async () => {
    const result = await r.render(renderRequest(`${sites.origin}/walls/ok-fullscreen-slider`, shot));
    expect(await pixel(shotFile(result.screenshot!.url), 640, 400)).toEqual([30, 120, 30]);
  });

  it('keeps a full-screen layer that asks something (an age gate), whatever its name', async () => {
    telemetry.exporter.reset();
    const result = await r.render(renderRequest(`${sites.origin}/walls/ok-age-gate`, shot));
    expect(await loaderSpan()).toEqual([undefined, 'undefined']);
    expect(await pixel(shotFile(result.screenshot!.url), 100, 100)).toEqual([20, 20, 120]);
    expect(SnapshotSchema.parse(result.snapshot).text.visible).toContain('AGE-GATE');
  });
});
