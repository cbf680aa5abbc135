/**
 * Renders saved real-world pages (the dev corpus, served from 127.0.0.2; their external resources are
 * unreachable offline) and checks every snapshot against the contract, printing failures and timings:
 *   .tools/node/bin/node services/renderer/bench/corpus-snapshots.ts [limit=40]
 * Skips with a reason when the corpus is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { SnapshotSchema } from '@enrich/shared/contracts';
import { renderRequest, startTestRenderer } from '../../../test/support/renderer-harness.ts';

const dir = new URL('../../../../shared/corpus/dev/pages/', import.meta.url).pathname;
if (!existsSync(dir)) {
  console.log(`skipped: no corpus at ${dir}`);
  process.exit(0);
}
const limit = Number(process.argv[2] ?? 40);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .slice(0, limit);
const server = createServer((req, res) => {
  const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0]!);
  if (!files.includes(name)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(readFileSync(dir + name));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.2', () => r()));
const origin = `http://127.0.0.2:${(server.address() as { port: number }).port}`;
const r = startTestRenderer({ RENDER_CONCURRENCY: '2' });
let failures = 0;
const totals: number[] = [];
const queue = [...files];
await Promise.all(
  [0, 1].map(async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      try {
        const result = await r.render(renderRequest(`${origin}/${f}`, { visuals: true, screenshot: { format: 'jpeg', fullPage: false } }), 30_000);
        const parsed = SnapshotSchema.safeParse(result.snapshot);
        totals.push(result.timings.totalMs);
        const s = result.snapshot!;
        if (!parsed.success) {
          failures++;
          console.log(
            `INVALID ${f}: ${parsed.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.join('.')}: ${i.message}`)
              .join('; ')}`,
          );
        } else {
          console.log(
            `ok ${f.padEnd(36)} ${String(result.timings.totalMs).padStart(6)} ms (nav ${result.timings.navigationMs} settle ${result.timings.settleMs} collect ${result.timings.collectMs} shot+visuals ${result.timings.screenshotMs})  anchors ${s.anchors.length} images ${s.images.length} svgs ${s.svgs.length} colors ${s.styles.colors.length} logos ${s.logoRasters.length} truncated [${s.truncated.join(',')}]`,
          );
        }
      } catch (err) {
        failures++;
        console.log(`FAILED ${f}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }),
);
totals.sort((a, b) => a - b);
console.log(
  `${files.length} pages, ${failures} failures, median ${totals[Math.floor(totals.length / 2)]} ms, p90 ${totals[Math.floor(totals.length * 0.9)]} ms`,
);
await r.renderer.close();
server.close();
