/**
 * The blind logo probe sets `logo-2` and `logo-3` (test/fixtures/probes, README there) through the real renderer
 * (Chromium) and the real brand analyzer, as `/enrich` renders a page: each homepage served under
 * its own host name with its own files (its folder), scripts on, and a known logo or icon of the
 * page among `logos`. Its placements need a browser: logos a script inserts or a lazy loader swaps,
 * shadow roots, `<object>`/`<embed>`, sprites, CSS backgrounds from stylesheets, manifests and an
 * unlinked /favicon.ico.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBrand } from '../../services/brand/src/analyze.ts';
import { knownLogoFound } from '../eval/score-brand.ts';
import { renderRequest, startTestRenderer } from '../support/renderer-harness.ts';

const SETS = ['logo-2', 'logo-3'] as const;
interface Label {
  file: string;
  host: string;
  logo_urls: string[];
  placement: string;
  /** The set's folder, where the page and its files are. */
  dir: string;
}
const labelsOf = (set: string): Label[] => {
  const dir = join(import.meta.dirname, '../fixtures/probes', set);
  return readFileSync(join(dir, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ ...(JSON.parse(l) as Omit<Label, 'dir'>), dir }));
};
const bySet = new Map(SETS.map((set) => [set, labelsOf(set)]));
const labels = [...bySet.values()].flat();
const TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  webp: 'image/webp',
  css: 'text/css',
  js: 'text/javascript',
  json: 'application/json',
  webmanifest: 'application/manifest+json',
};

let server: Server;
let port = 0;
// Every host resolves to the page server, which answers by the Host header.
const renderer = startTestRenderer({ RESOLVE_OVERRIDES: '*=127.0.0.2' });

beforeAll(async () => {
  const byHost = new Map(labels.map((l) => [l.host, l]));
  server = createServer((req, res) => {
    const l = byHost.get((req.headers.host ?? '').split(':')[0]!);
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (l && path === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(join(l.dir, l.file)));
    const file = l && !path.includes('..') ? join(l.dir, l.file.replace(/\.html$/, ''), path) : '';
    if (file && existsSync(file) && statSync(file).isFile())
      return void res.writeHead(200, { 'content-type': TYPES[path.split('.').pop()!] ?? 'application/octet-stream' }).end(readFileSync(file));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await renderer.renderer.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe('the blind logo probe sets through the renderer', () => {
  it('has 30 pages in each set, on hosts of their own', () => {
    for (const set of SETS) expect(bySet.get(set)).toHaveLength(30);
    expect(new Set(labels.map((l) => l.host)).size).toBe(labels.length);
  });

  it.each(labels.map((l) => [`${l.dir.split('/').pop()}/${l.file}`, l] as const))(
    '%s: a known logo or icon among logos',
    { timeout: 60_000 },
    async (_file, l) => {
      const origin = `http://${l.host}:${port}`;
      const result = await renderer.render(renderRequest(`${origin}/`, { scripts: true, visuals: true }), 30_000);
      const brand = await analyzeBrand({
        requestId: '00000000-0000-4000-8000-000000000000',
        snapshot: result.snapshot!,
        screenshotUrl: '',
        options: { screenshotColors: null, css: true, html: false, javascript: false },
      });
      const known = l.logo_urls.map((u) => u.replace(`https://${l.host}`, origin));
      expect(knownLogoFound({ page_id: l.file, logos: known, how: '' }, brand.logos), `${l.placement}: ${JSON.stringify(brand.logos)}`).toBe(true);
    },
  );
});
