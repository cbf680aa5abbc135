/** The egress proxy on its own, driven by plain HTTP clients (no browser). */
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList } from '../ssrf.ts';
import { createEgressGuard } from './guard.ts';
import { EGRESS_HEADER, startEgressProxy } from './proxy.ts';

let target: Server;
let targetPort: number;
beforeAll(async () => {
  target = createServer((req, res) => {
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      let sent = 0;
      const pump = (): void => {
        while (sent < 4 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 4 * 1024 * 1024) res.once('drain', pump);
        else res.end();
      };
      return pump();
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': req.headers.host ?? '' });
    res.end(`hello ${req.url}`);
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.2', () => r()));
  targetPort = (target.address() as { port: number }).port;
});
afterAll(async () => {
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
});

const guardFor = (names: Record<string, string[]> = {}) =>
  createEgressGuard({
    allow: parseAllowList('127.0.0.2/32'),
    resolve: async (host) => {
      const found = names[host];
      if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return found;
    },
  });

function viaProxy(proxyUrl: string, url: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const p = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: p.hostname, port: p.port, path: url, headers: { host: new URL(url).host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('aborted')));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startEgressProxy', () => {
  it('forwards to the checked address of a name only the guard can resolve, keeping the Host header', async () => {
    const guard = guardFor({ 'shop.fixture': ['127.0.0.2'] });
    const proxy = await startEgressProxy(guard);
    try {
      const res = await viaProxy(proxy.url, `http://shop.fixture:${targetPort}/a?b=1`);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('hello /a?b=1');
      expect(res.headers['x-seen-host']).toBe(`shop.fixture:${targetPort}`);
      expect(guard.refusals()).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('answers a refused plain-HTTP request itself and records why', async () => {
    const guard = guardFor();
    const proxy = await startEgressProxy(guard);
    try {
      const res = await viaProxy(proxy.url, `http://127.0.0.1:${targetPort}/secret`);
      expect(res.status).toBe(403);
      expect(res.headers[EGRESS_HEADER]).toBe('forbidden; net::ERR_BLOCKED_BY_CLIENT');
      // The page can read this answer: it says why, never which address.
      expect(res.body.toString()).toBe('Refused by the renderer: the host is a loopback address\n');
      expect(guard.refusalFor(`http://127.0.0.1:${targetPort}/secret`)).toMatchObject({ kind: 'forbidden' });
    } finally {
      await proxy.close();
    }
  });

  it('refuses a CONNECT tunnel to a forbidden address without connecting', async () => {
    const guard = guardFor();
    const proxy = await startEgressProxy(guard);
    try {
      const p = new URL(proxy.url);
      const answer = await new Promise<string>((resolve) => {
        const s = connect(Number(p.port), p.hostname, () => s.write(`CONNECT 169.254.169.254:443 HTTP/1.1\r\nhost: 169.254.169.254:443\r\n\r\n`));
        let data = '';
        s.on('data', (d) => {
          data += d.toString();
        });
        s.on('close', () => resolve(data));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 403/);
      expect(guard.refusals()[0]).toMatchObject({ kind: 'forbidden', url: 'https://169.254.169.254:443/' });
      expect(guard.refusals()[0]!.reason).toContain('cloud metadata');
    } finally {
      await proxy.close();
    }
  });

  it('reports a refused connection as the browser would name it', async () => {
    const guard = guardFor();
    const proxy = await startEgressProxy(guard);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.2', () => r()));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    try {
      const res = await viaProxy(proxy.url, `http://127.0.0.2:${port}/`);
      expect(res.status).toBe(502);
      expect(res.headers[EGRESS_HEADER]).toBe('unreachable; net::ERR_CONNECTION_REFUSED');
      expect(res.body.toString()).toBe('Unreachable: the connection to the site failed\n'); // no errno, no address
      expect(guard.refusals()[0]?.reason).toBe('the connection to the site failed');
    } finally {
      await proxy.close();
    }
  });

  it('cuts a render off once it has pulled its byte budget', async () => {
    const proxy = await startEgressProxy(guardFor(), 1024 * 1024);
    try {
      const outcome = await viaProxy(proxy.url, `http://127.0.0.2:${targetPort}/huge`).then(
        (r) => r.body.length,
        (e: Error) => e.message,
      );
      expect(typeof outcome === 'string' || outcome < 4 * 1024 * 1024).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
