/**
 * A forward proxy, one per render, that every browser connection goes through (the context's proxy).
 * Chromium's own routing hooks do not see redirect hops, and a check before the browser's own DNS
 * lookup can be beaten by DNS rebinding; here each connection is checked by the guard and then made
 * to the very address that was checked, so redirects, workers and websockets are covered too.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { EgressGuard } from './guard.ts';
import { netErrorOf } from './net-errors.ts';

export interface EgressProxy {
  /** `http://127.0.0.1:<port>` for the browser context's `proxy.server`. */
  url: string;
  close(): Promise<void>;
}

/** The proxy listens here; Chromium's resolver rules exempt exactly this literal (pool.ts). */
export const EGRESS_PROXY_HOST = '127.0.0.1';

/** Header on the proxy's own error answers to plain-HTTP requests, so the renderer can tell them from the site's. */
export const EGRESS_HEADER = 'x-enrich-egress';

/** Bytes one render may pull from the network; beyond it connections are cut (huge downloads, endless streams). */
export const MAX_BYTES_PER_RENDER = 150 * 1024 * 1024;

/** The reason of a failed connection; the socket's own error (errno, address) stays inside. */
const CONNECTION_FAILED = 'the connection to the site failed';

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

function pinnedLookup(address: string) {
  const family = isIP(address) === 6 ? 6 : 4;
  return (_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void): void => {
    if (options?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
}

/** What the handlers of one proxy share: the sockets to close with it, the render's byte budget. */
interface ProxyTraffic {
  track(s: Socket): void;
  /** Counts bytes from the target; true when the render is over its byte budget. */
  overBudget(chunk: Buffer): boolean;
}

function refuseHttp(guard: EgressGuard, res: ServerResponse, url: string, kind: 'forbidden' | 'unreachable', reason: string, netError: string): void {
  guard.refuse({ url, kind, reason, netError });
  if (res.headersSent) return void res.destroy();
  res.writeHead(kind === 'forbidden' ? 403 : 502, { 'content-type': 'text/plain; charset=utf-8', [EGRESS_HEADER]: `${kind}; ${netError}` });
  res.end(`${kind === 'forbidden' ? 'Refused by the renderer' : 'Unreachable'}: ${reason}\n`);
}

/** A plain-HTTP request, forwarded to the checked address. */
async function forward(guard: EgressGuard, traffic: ProxyTraffic, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '';
  const verdict = await guard.check(url);
  if (!verdict.ok) {
    return refuseHttp(
      guard,
      res,
      url,
      verdict.kind === 'forbidden' ? 'forbidden' : 'unreachable',
      verdict.reason,
      verdict.kind === 'forbidden' ? 'net::ERR_BLOCKED_BY_CLIENT' : 'net::ERR_NAME_NOT_RESOLVED',
    );
  }
  const target = new URL(url);
  if (target.protocol !== 'http:')
    return refuseHttp(guard, res, url, 'forbidden', `scheme ${target.protocol} through the plain proxy`, 'net::ERR_BLOCKED_BY_CLIENT');
  const headers = { ...req.headers };
  for (const h of HOP_BY_HOP) delete headers[h];
  const upstream = httpRequest({
    host: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port || 80,
    path: `${target.pathname}${target.search}`,
    method: req.method,
    headers,
    lookup: pinnedLookup(verdict.addresses[0]!) as never, // the checked address, never a second lookup
    agent: false,
  });
  upstream.on('socket', traffic.track);
  upstream.once('response', (up) => {
    const out = { ...up.headers };
    delete out.connection;
    delete out['keep-alive'];
    res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
    up.on('data', (chunk: Buffer) => {
      if (traffic.overBudget(chunk)) {
        up.destroy();
        res.destroy();
      }
    });
    up.pipe(res);
    up.once('error', () => res.destroy());
  });
  upstream.once('error', (err) => refuseHttp(guard, res, url, 'unreachable', CONNECTION_FAILED, netErrorOf(err)));
  res.once('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** A CONNECT (HTTPS, WSS): a tunnel to the checked address. */
function tunnel(guard: EgressGuard, traffic: ProxyTraffic, req: IncomingMessage, client: Socket, head: Buffer): void {
  traffic.track(client);
  client.on('error', () => client.destroy());
  const authority = req.url ?? '';
  const url = `https://${authority}/`;
  const answer = (line: string): void => {
    if (!client.destroyed) client.end(`HTTP/1.1 ${line}\r\ncontent-length: 0\r\n\r\n`);
  };
  void guard.check(url).then((verdict) => {
    if (!verdict.ok) {
      guard.refuse({
        url,
        kind: verdict.kind === 'forbidden' ? 'forbidden' : 'unreachable',
        reason: verdict.reason,
        netError: verdict.kind === 'forbidden' ? 'net::ERR_BLOCKED_BY_CLIENT' : 'net::ERR_NAME_NOT_RESOLVED',
      });
      return answer(verdict.kind === 'forbidden' ? '403 Forbidden' : '502 Bad Gateway');
    }
    const port = Number(new URL(url).port || 443);
    const upstream = connect({ host: verdict.addresses[0]!, port });
    traffic.track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.on('data', (chunk: Buffer) => {
        if (traffic.overBudget(chunk)) {
          upstream.destroy();
          client.destroy();
        }
      });
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', (err) => {
      guard.refuse({ url, kind: 'unreachable', reason: CONNECTION_FAILED, netError: netErrorOf(err) });
      answer('502 Bad Gateway');
    });
    client.once('close', () => upstream.destroy());
  });
}

export async function startEgressProxy(guard: EgressGuard, maxBytes = MAX_BYTES_PER_RENDER): Promise<EgressProxy> {
  const sockets = new Set<Socket>();
  let received = 0;
  const traffic: ProxyTraffic = {
    track(s) {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    },
    overBudget(chunk) {
      received += chunk.length;
      return received > maxBytes;
    },
  };
  const server = createServer((req, res) => {
    forward(guard, traffic, req, res).catch(() => res.destroy());
  });
  server.on('connection', traffic.track);
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => tunnel(guard, traffic, req, client, head));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, EGRESS_PROXY_HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${EGRESS_PROXY_HOST}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
