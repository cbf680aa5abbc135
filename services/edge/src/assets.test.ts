import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerAssets, resolveAssetPath } from './assets.ts';
import { EdgeHttpError } from './errors.ts';

describe('resolveAssetPath', () => {
  it.each(['../secret.png', 'a/../../b.png', '/etc/x.png', 'a\\..\\b.png', 'x.png\0.png', 'notes.txt', 'shots/', '.'])('refuses %s', (p) => {
    expect(resolveAssetPath('/srv/shots', p)).toBeNull();
  });
  it('resolves an image inside the directory', () => {
    expect(resolveAssetPath('/srv/shots', '2025/ab.webp')).toBe('/srv/shots/2025/ab.webp');
  });
});

describe('/assets/*', () => {
  it('serves images with their content type, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-assets-'));
    mkdirSync(join(dir, 'sub.png'));
    writeFileSync(join(dir, 'a.jpg'), 'JPEG');
    writeFileSync(join(dir, 'b.webp'), 'WEBP');
    writeFileSync(join(dir, 'c.png'), 'PNG');
    writeFileSync(join(dir, 'd.txt'), 'TEXT');
    const app = Fastify();
    app.setErrorHandler((err, _req, reply) => reply.code(err instanceof EdgeHttpError ? err.status : 500).send({ error: (err as Error).message }));
    registerAssets(app, dir);
    const get = (url: string) => app.inject({ method: 'GET', url });
    expect((await get('/assets/a.jpg')).headers['content-type']).toBe('image/jpeg');
    expect((await get('/assets/b.webp')).headers['content-type']).toBe('image/webp');
    const png = await get('/assets/c.png');
    expect([png.statusCode, png.headers['content-type'], png.body]).toEqual([200, 'image/png', 'PNG']);
    expect((await get('/assets/d.txt')).statusCode).toBe(404);
    expect((await get('/assets/sub.png')).statusCode).toBe(404); // a directory: no listing
    expect((await get('/assets/')).statusCode).toBe(404);
    expect((await get('/assets/..%2Fedge-assets-x%2Fa.jpg')).statusCode).toBe(404);
    expect((await get('/assets/%2e%2e/%2e%2e/etc/passwd')).statusCode).toBe(404);
    expect((await get('/assets/missing.png')).statusCode).toBe(404);
    await app.close();
  });
});
