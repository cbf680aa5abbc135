/**
 * Integration: every way a page could reach the network around the egress proxy, tried in real
 * Chromium through the renderer. Each page tries one exit towards a loopback listener that no guard
 * allows and holds its document open until the attempt has an outcome, so the render (and the test)
 * waits for it; then the listener must have received nothing. README "Exits around the egress proxy".
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExitProbes, type ExitProbes } from '../../../test/support/exit-probes.ts';
import { FULL_CHROMIUM_PATH, HEADLESS_SHELL_PATH } from './config.ts';
import { CHROMIUM_ARGS } from './pool.ts';
import { fixtureResolver, renderRequest, startTestRenderer } from '../../../test/support/renderer-harness.ts';

let probes: ExitProbes;
const r = startTestRenderer();

beforeAll(async () => {
  probes = await startExitProbes();
  await r.renderer.pool.warm();
});
afterAll(async () => {
  await r.renderer.close();
  await probes?.close();
});

/** Renders a page that runs `script`; returns the outcome the page reported. */
async function tryExit(script: string, head = '', renderer = r): Promise<string> {
  const token = randomUUID();
  const result = await renderer.render(renderRequest(probes.pageUrl(token, script, head)), 30_000);
  expect(result.snapshot?.text.headings).toContainEqual({ level: 1, text: 'outcome reported' });
  const outcome = probes.outcome(token);
  expect(outcome).toBeDefined();
  return outcome as string;
}

/** ICE gathering to completion, or 5 s in the page when something keeps it going. */
const iceScript = (iceServers: string): string => `
  const pc = new RTCPeerConnection({ iceServers: ${iceServers} });
  pc.createDataChannel('probe');
  await pc.setLocalDescription(await pc.createOffer());
  const candidates = [];
  pc.onicecandidate = (e) => { if (e.candidate) candidates.push(e.candidate.type); };
  await new Promise((done) => {
    if (pc.iceGatheringState === 'complete') return done();
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') done(); };
    setTimeout(done, 5000);
  });
  const state = pc.iceGatheringState;
  pc.close();
  return 'ice ' + state + ' candidates ' + candidates.length;`;

/** A WebTransport session to the QUIC probe: its outcome, or 'pending' after 5 s in the page. */
const webTransportScript = (): string => `
  if (typeof WebTransport === 'undefined') return 'no WebTransport';
  const wt = new WebTransport('https://127.0.0.5:${probes.quicPort}/');
  wt.closed.catch(() => {});
  return 'webtransport ' + await Promise.race([wt.ready.then(() => 'open', () => 'failed'), new Promise((r) => setTimeout(() => r('pending'), 5000))]);`;

describe('WebRTC', () => {
  it('sends no UDP packet to a STUN or TURN server (ICE gathers nothing)', async () => {
    const before = probes.counts().stun;
    const servers = `[{ urls: 'stun:127.0.0.3:${probes.stunPort}' }, { urls: 'turn:127.0.0.3:${probes.stunPort}?transport=udp', username: 'u', credential: 'p' }]`;
    const outcome = await tryExit(iceScript(servers));
    expect(outcome).toBe('ice complete candidates 0');
    expect(probes.counts().stun).toBe(before);
  });

  // CHROMIUM_ARGS carry one WebRTC switch for each build (pool.ts): the build this suite does not
  // run, when it is installed, is held to the same.
  const otherBuild = [HEADLESS_SHELL_PATH, FULL_CHROMIUM_PATH].find((p) => p !== r.config.CHROMIUM_PATH && existsSync(p));
  it.skipIf(!otherBuild)(`sends none from the other Chromium build either (${otherBuild ?? 'not installed'})`, async () => {
    const other = startTestRenderer({}, undefined, () => chromium.launch({ executablePath: otherBuild, args: CHROMIUM_ARGS }));
    try {
      const before = probes.counts().stun;
      const servers = `[{ urls: 'stun:127.0.0.3:${probes.stunPort}' }, { urls: 'turn:127.0.0.3:${probes.stunPort}?transport=udp', username: 'u', credential: 'p' }]`;
      expect(await tryExit(iceScript(servers), '', other)).toBe('ice complete candidates 0');
      expect(probes.counts().stun).toBe(before);
    } finally {
      await other.renderer.close();
    }
  });

  it('takes TURN over TCP through the proxy, which refuses the address', async () => {
    const before = probes.counts().tcp;
    const outcome = await tryExit(iceScript(`[{ urls: 'turn:127.0.0.4:${probes.tcpPort}?transport=tcp', username: 'u', credential: 'p' }]`));
    expect(outcome).toMatch(/^ice complete/);
    expect(probes.counts().tcp).toBe(before);
  });
});

describe('QUIC', () => {
  it('sends no WebTransport (QUIC) packet', async () => {
    const before = probes.counts().quic;
    const outcome = await tryExit(webTransportScript());
    // Chromium opens WebTransport (HTTP/3) only on a direct route, and every context has a proxy.
    expect(outcome).toBe('webtransport failed');
    expect(probes.counts().quic).toBe(before);
  });
});

/** Every host name Chromium's own resolver was asked about, from its net log (`--log-net-log`). */
function resolverHosts(netLogFile: string): string[] {
  const log = JSON.parse(readFileSync(netLogFile, 'utf8')) as {
    constants: { logEventTypes: Record<string, number> };
    events: Array<{ type: number; params?: { host?: string } }>;
  };
  const resolverTypes = new Set(
    Object.entries(log.constants.logEventTypes)
      .filter(([name]) => name.startsWith('HOST_RESOLVER'))
      .map(([, id]) => id),
  );
  return log.events.filter((e) => resolverTypes.has(e.type) && e.params?.host).map((e) => e.params!.host!);
}

describe("Chromium's own resolver", () => {
  it('looks up no name a page uses: the proxy resolves and checks, Chromium never queries DNS', async () => {
    const netLog = join(mkdtempSync(join(tmpdir(), 'renderer-netlog-')), 'net.json');
    const args = [...CHROMIUM_ARGS, `--log-net-log=${netLog}`];
    const logged = startTestRenderer({}, fixtureResolver({ 'shop.fixture': ['127.0.0.2'] }), () =>
      chromium.launch({ executablePath: r.config.CHROMIUM_PATH, args }),
    );
    try {
      const port = new URL(probes.origin).port;
      // Headless Chromium acts on neither hint today (README "Exits"); if it ever did, the names must not be looked up either.
      const head = `<link rel="dns-prefetch" href="//prefetch-probe.fixture"><link rel="preconnect" href="http://preconnect-probe.fixture">`;
      const url = probes
        .pageUrl(randomUUID(), `return (await fetch('http://shop.fixture:${port}/after-hints')).status;`, head)
        .replace('127.0.0.2', 'shop.fixture');
      const result = await logged.render(renderRequest(url), 30_000);
      expect(result.snapshot?.text.headings).toContainEqual({ level: 1, text: 'outcome reported' });
    } finally {
      await logged.renderer.close(); // the net log is complete once the browser is closed
    }
    const hosts = resolverHosts(netLog);
    expect(hosts.length).toBeGreaterThan(0); // the log does record resolver requests...
    expect(hosts.filter((h) => h.includes('.fixture'))).toEqual([]); // ...but never for a page's names
  });
});

/** Scripts that reach `target` (an http origin) one way each, resolving when the attempt is over. */
const workerScripts = (target: string): Record<string, string> => ({
  'dedicated worker': `
    const w = new Worker('/worker.js');
    const answer = new Promise((r) => { w.onmessage = (e) => r(e.data); });
    w.postMessage('${target}/from-worker');
    return answer;`,
  'shared worker': `
    const w = new SharedWorker('/shared-worker.js');
    const answer = new Promise((r) => { w.port.onmessage = (e) => r(e.data); });
    w.port.start();
    w.port.postMessage('${target}/from-shared-worker');
    return answer;`,
  'service worker': `
    if (!navigator.serviceWorker) return 'no serviceWorker';
    return navigator.serviceWorker.register('/sw.js?target=' + encodeURIComponent('${target}/from-service-worker')).then(() => 'registered', (e) => 'refused ' + e.name);`,
  sendBeacon: `
    const queued = navigator.sendBeacon('${target}/beacon', 'data');
    // Beacons have no outcome event; an allowed one sent after it is answered after it was tried.
    navigator.sendBeacon('/beacon-after');
    await fetch('/after-beacon');
    return 'queued ' + queued;`,
  EventSource: `
    const es = new EventSource('${target}/events');
    const result = await new Promise((r) => { es.onopen = () => r('open'); es.onerror = () => r('error'); });
    es.close();
    return result;`,
  WebSocket: `
    const ws = new WebSocket('${target.replace('http:', 'ws:')}/socket');
    return new Promise((r) => { ws.onopen = () => r('open'); ws.onerror = () => r('error'); ws.onclose = (e) => r('closed ' + e.code); });`,
});

describe('workers, beacons, event streams and sockets', () => {
  it.each(Object.keys(workerScripts('http://x')))('%s: the forbidden address receives nothing', async (name) => {
    const before = probes.counts().forbidden;
    const outcome = await tryExit(workerScripts(probes.forbiddenOrigin)[name]!);
    expect(outcome).not.toMatch(/^threw/);
    expect(outcome).not.toMatch(/^(status 200|open)$/);
    expect(probes.counts().forbidden).toBe(before);
    // Service workers are blocked for every context: the script is never even fetched.
    expect(probes.hits('/sw.js')).toBe(0);
  });
});

describe('the probes can see an exit (controls)', () => {
  it('a browser without the WebRTC policy flags does send STUN packets', async () => {
    const args = CHROMIUM_ARGS.filter((a) => !/^--(force-)?webrtc-ip-handling-policy/.test(a));
    const bare = startTestRenderer({}, undefined, () => chromium.launch({ executablePath: r.config.CHROMIUM_PATH, args }));
    try {
      const outcome = await tryExit(iceScript(`[{ urls: 'stun:127.0.0.3:${probes.stunPort}' }]`), '', bare);
      expect(outcome).not.toBe('ice complete candidates 0');
      await probes.firstStunPacket();
      expect(probes.counts().stun).toBeGreaterThan(0);
    } finally {
      await bare.renderer.close();
    }
  });

  it('a context without the proxy does send WebTransport packets', async () => {
    const browser = await chromium.launch({
      executablePath: r.config.CHROMIUM_PATH,
      args: CHROMIUM_ARGS.filter((a) => !a.startsWith('--host-resolver-rules')),
    });
    try {
      const page = await (await browser.newContext()).newPage();
      const token = randomUUID();
      await page.goto(probes.pageUrl(token, webTransportScript()));
      expect(probes.outcome(token)).toMatch(/^webtransport/);
      expect(probes.counts().quic).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });

  it('the same scripts reach the listener when the renderer allows its address', async () => {
    const open = startTestRenderer({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32,127.0.0.1/32,127.0.0.4/32' });
    try {
      const tcpBefore = probes.counts().tcp;
      await tryExit(iceScript(`[{ urls: 'turn:127.0.0.4:${probes.tcpPort}?transport=tcp', username: 'u', credential: 'p' }]`), '', open);
      expect(probes.counts().tcp, 'TURN over TCP').toBeGreaterThan(tcpBefore);
      const scripts = workerScripts(probes.forbiddenOrigin);
      for (const name of ['dedicated worker', 'shared worker', 'sendBeacon', 'EventSource', 'WebSocket']) {
        const before = probes.counts().forbidden;
        await tryExit(scripts[name]!, '', open);
        expect(probes.counts().forbidden, name).toBeGreaterThan(before);
      }
    } finally {
      await open.renderer.close();
    }
  });
});
