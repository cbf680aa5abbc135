/**
 * Integration through NATS: the renderer serves `render.page` in its queue group; a page larger than
 * NATS max_payload comes back by claim check; errors arrive as their typed classes; screenshots land
 * in a real S3-protocol server (s3rver) and are fetched back from the returned URL.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RENDER_PAGE, SnapshotSchema } from '@enrich/shared/contracts';
import { TargetUnreachableError, UrlForbiddenError } from '@enrich/shared/errors';
import { connectNats, request, type NatsConnection } from '@enrich/shared/nats';
import { startRenderer } from './service.ts';
import { startFixtureSites, type FixtureSites } from '../../../test/support/fixture-sites.ts';
import { renderRequest, testConfig, testLog } from '../../../test/support/renderer-harness.ts';

// s3rver is a test-workspace dependency without types; its constructor and run/close are all we use.
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

let sites: FixtureSites;
let nc: NatsConnection;
let s3: { run(): Promise<{ port: number }>; close(): Promise<void> };
let s3Dir: string;
let renderer: { stop(): Promise<void> };

beforeAll(async () => {
  sites = await startFixtureSites();
  s3Dir = mkdtempSync(join(tmpdir(), 'renderer-s3-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: 'shots' }] });
  const { port } = await s3.run();
  nc = await connectNats({ url: inject('natsUrl'), name: 'renderer-service-test' });
  const config = testConfig({
    S3_BUCKET: 'shots',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  renderer = await startRenderer({ nc, config, log: testLog });
});

afterAll(async () => {
  await renderer?.stop();
  await nc?.drain();
  await s3?.close();
  await sites?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

const call = (req: ReturnType<typeof renderRequest>, budgetMs = 25_000) =>
  request(nc, RENDER_PAGE, req, { deadline: Date.now() + budgetMs, requestId: req.requestId });

describe('render.page over NATS', () => {
  it('returns a page larger than 5 MB whole, by claim check', async () => {
    const result = await call(renderRequest(`${sites.origin}/big`));
    const snap = SnapshotSchema.parse(result.snapshot);
    expect(snap.html.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(snap.html.endsWith('</html>')).toBe(true);
    expect(snap.text.footer).toBe('The end');
    expect(snap.truncated).toContain('text.visible');
  });

  it('stores the screenshot in S3 at a URL that serves the exact image', async () => {
    const req = renderRequest(`${sites.origin}/`, { snapshot: false, screenshot: { format: 'webp', fullPage: false }, viewport: { width: 1000, height: 700 } });
    const result = await call(req);
    const shot = result.screenshot!;
    expect(shot.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/shots/screenshots/\\d{4}-\\d\\d-\\d\\d/${req.requestId}\\.webp$`));
    const res = await fetch(shot.url);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(shot.bytes);
    const meta = await sharp(body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1000, 700]);
  });

  it('sends typed errors back to the caller', async () => {
    await expect(call(renderRequest(`http://127.0.0.1:${sites.forbiddenPort}/`))).rejects.toBeInstanceOf(UrlForbiddenError);
    const err = await call(renderRequest(`http://127.0.0.2:${sites.closedPort}/`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect((err as Error).message).toContain('net::ERR_CONNECTION_REFUSED');
  });

  it('carries the request id into the stored key', async () => {
    const requestId = randomUUID();
    const result = await call({ ...renderRequest(`${sites.origin}/spa/`, { snapshot: false, screenshot: { format: 'jpeg', fullPage: true } }), requestId });
    expect(result.screenshot!.url).toContain(`${requestId}.jpeg`);
  });
});
