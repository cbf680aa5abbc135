/**
 * Integration (real Chromium): the primary logo's raster from its file (logos.ts `shownAsFile`, `rasterOfFile`).
 * An `<img>` shown as its file is is decoded from the answer the page already had, without a capture
 * (span `render.logos`, attribute `logos.from=file`); one under a CSS filter is captured as shown.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotSchema, type Snapshot, type SnapshotVisuals } from '@enrich/shared/contracts';
import { sameVisuals } from '@enrich/shared/nats';
import { startTestTelemetry } from '@enrich/shared/telemetry';
import { startFixtureSites, type FixtureSites } from '../../../test/support/fixture-sites.ts';
import { renderRequest, startTestRenderer, testLog } from '../../../test/support/renderer-harness.ts';
import { dataUrlBytes } from './logos.ts';
import { rasterFromFile } from './screenshot.ts';

const telemetry = startTestTelemetry('logo-file-test');
let sites: FixtureSites;
let r: ReturnType<typeof startTestRenderer>;
beforeAll(async () => {
  sites = await startFixtureSites();
  r = startTestRenderer();
});
afterAll(async () => {
  await r?.renderer.close();
  await sites?.close();
  await telemetry.shutdown();
});

/** The primary logo's raster, the colour at its centre, and where the raster came from. */
async function logoOf(as: string): Promise<{ rgb: number[]; from: unknown; early: unknown; width: number; height: number }> {
  telemetry.exporter.reset();
  const result = await r.render(renderRequest(`${sites.origin}/logo-file?as=${as}`, { visuals: true }));
  const raster = SnapshotSchema.parse(result.snapshot).logoRasters[0]!;
  const { data, info } = await sharp(Buffer.from(raster.png, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  await telemetry.forceFlush();
  const span = telemetry.exporter.getFinishedSpans().find((s: ReadableSpan) => s.name === 'render.logos');
  return {
    rgb: [...data.subarray(at, at + 3)],
    from: span?.attributes['logos.from'],
    early: span?.attributes['logos.begun_before_capture'] ?? false,
    width: raster.width,
    height: raster.height,
  };
}

const near = (a: number[], b: number[]): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= 8);

describe('the logo raster from the file', () => {
  it('decodes an <img> shown as its file is from the bytes the page loaded, at the size it is shown', async () => {
    const logo = await logoOf('plain');
    expect(logo.from).toBe('file');
    // The header logo outranks any site icon, so its file was read while the page was captured.
    expect(logo.early).toBe(true);
    expect(near(logo.rgb, [0xd0, 0x02, 0x1b]), String(logo.rgb)).toBe(true);
    expect(logo).toMatchObject({ width: 160, height: 48 });
  });

  it('decodes a data: URL image', async () => {
    const logo = await logoOf('data');
    expect(logo.from).toBe('file');
    expect(near(logo.rgb, [41, 128, 185]), String(logo.rgb)).toBe(true);
  });

  it('captures an <img> under a CSS filter as the page shows it', async () => {
    const logo = await logoOf('filtered');
    expect(logo.from).toBe('page');
    expect(logo.early).toBe(false);
    // invert(1) of #d0021b
    expect(near(logo.rgb, [0x2f, 0xfd, 0xe4]), String(logo.rgb)).toBe(true);
  });

  it('reads an SVG logo drawn by <object> or <embed>, and the file behind a lazy placeholder whose script never ran', async () => {
    for (const as of ['object', 'embed']) {
      const logo = await logoOf(as);
      expect(logo.from, as).toBe('page'); // captured as the browser draws it
      expect(near(logo.rgb, [0xd0, 0x02, 0x1b]), `${as}: ${logo.rgb}`).toBe(true);
    }
    const lazy = await r.render(renderRequest(`${sites.origin}/logo-file?as=lazy`, { visuals: true }));
    const snap = SnapshotSchema.parse(lazy.snapshot);
    expect(snap.images[0]!.src).toBe(`${sites.origin}/img/red-logo.svg`);
    // Not a capture of the 1 px placeholder: the file, loaded by its URL.
    expect(snap.logoRasters.map((l) => l.ref)).toEqual([`url:${sites.origin}/img/red-logo.svg`]);
  });

  it('hands the visuals out before the capture ends when the logo is read from its file and no thumbnail is wanted', async () => {
    const handedOut = async (as: string, thumbnail: boolean) => {
      const seen: { part?: Snapshot; visuals?: SnapshotVisuals; visualsPart?: Snapshot } = {};
      const req = renderRequest(`${sites.origin}/logo-file?as=${as}`, { visuals: true, thumbnail, screenshot: { format: 'jpeg', fullPage: false } });
      const result = await r.renderer.render(req, {
        deadline: Date.now() + 20_000,
        signal: new AbortController().signal,
        log: testLog,
        onPagePart: (part) => void (seen.part = part),
        onVisuals: (part, visuals) => {
          seen.visualsPart = part;
          seen.visuals = visuals;
        },
      });
      return { ...seen, result };
    };
    const plain = await handedOut('plain', false);
    expect(plain.visualsPart).toBe(plain.part); // the visuals of the page part handed out
    expect(plain.visuals!.thumbnail).toBeNull();
    // The finished snapshot carries the same raster and icons, so the reply can name these visuals.
    expect(sameVisuals(plain.visuals!, plain.result.snapshot!)).toBe(true);
    expect(plain.visuals!.logoRasters).toHaveLength(1);
    // A logo the browser must capture, or a thumbnail to make from the capture: the visuals wait for the capture.
    expect((await handedOut('filtered', false)).visuals).toBeUndefined();
    expect((await handedOut('plain', true)).visuals).toBeUndefined();
  });

  it('reads data: URLs, and leaves to the browser what sharp cannot decode or should not', async () => {
    expect(dataUrlBytes('data:image/svg+xml,%3Csvg%2F%3E')?.toString()).toBe('<svg/>');
    expect(dataUrlBytes('data:image/png;base64,iVBORw0K')?.subarray(0, 4).toString('hex')).toBe('89504e47');
    expect(dataUrlBytes('https://example.org/logo.png')).toBeNull();
    const ico = Buffer.from('0000010001001010000001002000680400001600000000', 'hex');
    expect(await rasterFromFile(ico)).toBeNull();
    expect(await rasterFromFile(Buffer.alloc(5 * 1024 * 1024))).toBeNull();
    // A 100 000 x 100 000 SVG is over the pixel bound, not drawn.
    expect(
      await rasterFromFile(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>')),
    ).toBeNull();
    const png = await rasterFromFile(
      await sharp({ create: { width: 1024, height: 256, channels: 4, background: '#00f' } })
        .png()
        .toBuffer(),
    );
    expect(png).toMatchObject({ width: 512, height: 128 });
  });
});
