/**
 * How often the logo raster holds something other than the logo on a loaded machine:
 *   .tools/node/bin/node services/renderer/bench/logo-raster-race.ts [renders=60] [busy=2]
 * Renders the microdata fixture of test/e2e/logo-placements.test.ts (an orange 160 x 60 logo below
 * a heading) with visuals `renders` times while `busy` processes spin a core each, and counts the
 * rasters whose centre is not the logo's orange (src/screenshot.ts, rasterizeElement: a clip of the
 * logo's own box held the page's top-left corner or nothing in 7 of 270 renders; the corner clip, 0 of 360).
 * Writes each wrong raster to the temporary directory it prints. Numbers only; not a test.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { serveStatic } from '../../../deploy/local/static-site.ts';
import { renderRequest, startTestRenderer } from '../../../test/support/renderer-harness.ts';

const renders = Number(process.argv[2] ?? 60);
const busy = Number(process.argv[3] ?? 2);
const spinners = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const site = await serveStatic(join(import.meta.dirname, '../../../test/fixtures/sites/logo-placements'), { host: '127.0.0.2' });
const r = startTestRenderer();
const out = mkdtempSync(join(tmpdir(), 'logo-raster-race-'));
let wrong = 0;
try {
  for (let i = 0; i < renders; i++) {
    const result = await r.render(renderRequest(`${site.origin}/microdata.html`, { visuals: true }), 30_000);
    const raster = result.snapshot?.logoRasters[0];
    const png = raster ? Buffer.from(raster.png, 'base64') : undefined;
    let centre = 'none';
    if (png) {
      const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 4;
      centre = Array.from(data.subarray(at, at + 4)).join(',');
    }
    if (centre !== '245,166,35,255') {
      wrong++;
      if (png) writeFileSync(join(out, `render-${i}.png`), png);
      console.log(`render ${i}: raster ${raster?.ref ?? 'none'} ${raster?.width ?? 0}x${raster?.height ?? 0}, centre ${centre}`);
    }
  }
} finally {
  for (const s of spinners) s.kill();
  await r.renderer.close();
  await site.close();
}
console.log(`${wrong} of ${renders} rasters were not the logo (${busy} busy processes beside the renderer); wrong rasters in ${out}`);
