/**
 * Prints per-request render timings against the local fixture site (no network needed):
 *   .tools/node/bin/node services/renderer/bench/render-timings.ts [runs=10]
 * Three shapes: screenshot only (the /screenshot path), snapshot only, and snapshot + screenshot + visuals (/enrich).
 */
import { renderRequest, startTestRenderer } from '../../../test/support/renderer-harness.ts';
import { startFixtureSites } from '../../../test/support/fixture-sites.ts';
import type { RenderRequest } from '@enrich/shared/contracts';

const runs = Number(process.argv[2] ?? 10);
const sites = await startFixtureSites();
const r = startTestRenderer();
const launchStart = Date.now();
await r.renderer.pool.warm();
console.log(`browser launch: ${Date.now() - launchStart} ms`);

const shapes: Array<[string, Partial<RenderRequest>]> = [
  ['screenshot only (png, viewport)', { snapshot: false, screenshot: { format: 'png', fullPage: false } }],
  ['screenshot only (jpeg, full page)', { snapshot: false, screenshot: { format: 'jpeg', fullPage: true } }],
  ['snapshot only', { snapshot: true }],
  ['snapshot + screenshot + visuals', { snapshot: true, visuals: true, screenshot: { format: 'png', fullPage: false } }],
];
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, shape] of shapes) {
  await r.render(renderRequest(`${sites.origin}/`, shape)); // warm-up
  const rows: Array<Record<string, number>> = [];
  for (let i = 0; i < runs; i++) rows.push((await r.render(renderRequest(`${sites.origin}/`, shape))).timings);
  const keys = ['navigationMs', 'settleMs', 'collectMs', 'screenshotMs', 'totalMs'];
  console.log(`${name.padEnd(36)} median of ${runs}: ${keys.map((k) => `${k.replace('Ms', '')} ${Math.round(median(rows.map((t) => t[k]!)))}`).join('  ')} ms`);
}
await r.renderer.close();
await sites.close();
