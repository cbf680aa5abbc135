/**
 * Probes for the exits around the egress proxy: listeners on loopback addresses that no guard
 * allows, counting every packet or connection, and a site on 127.0.0.2 whose pages try one exit
 * each and hold their document open until the attempt has an outcome (so the render waits for it).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';

export interface ExitProbes {
  /** `http://127.0.0.2:<port>`, the allowed site. */
  origin: string;
  /** UDP on 127.0.0.3: a STUN/TURN server that must receive nothing. */
  stunPort: number;
  /** TCP on 127.0.0.4: preconnect and TURN-over-TCP target that must see no connection. */
  tcpPort: number;
  /** UDP on 127.0.0.5: WebTransport (QUIC) target that must receive nothing. */
  quicPort: number;
  /** HTTP on 127.0.0.1: workers, beacons, EventSource and WebSocket target that must see no connection. */
  forbiddenOrigin: string;
  counts(): { stun: number; tcp: number; quic: number; forbidden: number };
  /** Requests the allowed site received for a path. */
  hits(path: string): number;
  /** Resolves with the first STUN packet (for the control case without the browser flag). */
  firstStunPacket(): Promise<void>;
  /** The outcome the page reported for a token, once it did. */
  outcome(token: string): string | undefined;
  /** A page under the allowed origin running `script` (an async function body returning a string). */
  pageUrl(token: string, script: string, head?: string): string;
  close(): Promise<void>;
}

function bindUdp(host: string, onPacket: () => void): Promise<UdpSocket> {
  const socket = createSocket('udp4');
  socket.on('message', onPacket);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => resolve(socket));
  });
}

function listen(server: Server | TcpServer, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    });
  });
}

const WORKER_JS = `self.onmessage = async (e) => {
  const outcome = await fetch(e.data).then((r) => 'status ' + r.status, (err) => 'failed ' + err.name);
  self.postMessage(outcome);
};`;
const SHARED_WORKER_JS = `onconnect = (e) => {
  const port = e.ports[0];
  port.onmessage = async (m) => port.postMessage(await fetch(m.data).then((r) => 'status ' + r.status, (err) => 'failed ' + err.name));
};`;
const SERVICE_WORKER_JS = `self.addEventListener('install', (e) => e.waitUntil(fetch(new URL(location).searchParams.get('target')).catch(() => {})));`;

function pageHead(token: string, script: string, head: string): string {
  return `<!DOCTYPE html><html><head><title>exit probe</title>${head}<script>
    (async () => { ${script} })().then((o) => String(o), (e) => 'threw ' + e.name + ': ' + e.message)
      .then((o) => fetch('/done?t=${token}&outcome=' + encodeURIComponent(o)));
  </script>`;
}

export async function startExitProbes(): Promise<ExitProbes> {
  const n = { stun: 0, tcp: 0, quic: 0, forbidden: 0 };
  const stunWaiters: Array<() => void> = [];
  const stun = await bindUdp('127.0.0.3', () => {
    n.stun++;
    stunWaiters.splice(0).forEach((w) => w());
  });
  const quic = await bindUdp('127.0.0.5', () => {
    n.quic++;
  });
  const sockets = new Set<Socket>();
  const tcp = createTcpServer((s) => {
    n.tcp++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.once('close', () => sockets.delete(s));
  });
  const tcpPort = await listen(tcp, '127.0.0.4');
  const forbidden = createServer((_req, res) => res.end('internal secret'));
  forbidden.on('connection', () => {
    n.forbidden++;
  });
  const forbiddenPort = await listen(forbidden, '127.0.0.1');

  const open = new Map<string, ServerResponse>();
  const pages = new Map<string, { script: string; head: string }>();
  const outcomes = new Map<string, string>();
  const hits = new Map<string, number>();
  const js = (res: ServerResponse, body: string): void => void res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
  const site = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://probe');
    const token = url.searchParams.get('t') ?? '';
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    switch (url.pathname) {
      case '/exit': {
        const page = pages.get(token);
        if (!page) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.write(pageHead(token, page.script, page.head));
        return void open.set(token, res); // the document ends when the page reports its outcome
      }
      case '/done':
        outcomes.set(token, url.searchParams.get('outcome') ?? '');
        open.get(token)?.end(`</head><body><h1>outcome reported</h1></body></html>`);
        open.delete(token);
        return void res.writeHead(204).end();
      case '/worker.js':
        return js(res, WORKER_JS);
      case '/shared-worker.js':
        return js(res, SHARED_WORKER_JS);
      case '/sw.js':
        return js(res, SERVICE_WORKER_JS);
      default:
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    }
  });
  const sitePort = await listen(site, '127.0.0.2');
  const origin = `http://127.0.0.2:${sitePort}`;

  return {
    origin,
    stunPort: stun.address().port,
    tcpPort,
    quicPort: quic.address().port,
    forbiddenOrigin: `http://127.0.0.1:${forbiddenPort}`,
    counts: () => ({ ...n }),
    hits: (path) => hits.get(path) ?? 0,
    firstStunPacket: () => (n.stun > 0 ? Promise.resolve() : new Promise((r) => stunWaiters.push(r))),
    outcome: (token) => outcomes.get(token),
    pageUrl(token, script, head = '') {
      pages.set(token, { script, head });
      return `${origin}/exit?t=${token}`;
    },
    async close() {
      for (const res of open.values()) res.destroy();
      for (const s of sockets) s.destroy();
      site.closeAllConnections();
      forbidden.closeAllConnections();
      stun.close();
      quic.close();
      await Promise.all([site, forbidden, tcp].map((s) => new Promise((r) => s.close(r))));
    },
  };
}
