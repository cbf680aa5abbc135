/**
 * The metrics an operator scrapes are real: a running edge process (the same `node
 * services/edge/src/main.ts` the images run, METRICS_PORT set) answers real HTTP requests, and its
 * Prometheus endpoint shows the request, error, latency and rate-limit counters moving for exactly
 * those endpoints and statuses. No renderer is needed: 400/401/404/429 are answered by the edge alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/nats-server.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text exposition format -> samples (comments and blank lines skipped). */
function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) throw new Error(`unparseable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const lm of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[lm[1] as string] = lm[2] as string;
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/** Sum of the samples of one metric whose labels pass the filter. */
function total(samples: Sample[], name: string, where: (labels: Record<string, string>) => boolean = () => true): number {
  return samples.filter((s) => s.name === name && where(s.labels)).reduce((sum, s) => sum + s.value, 0);
}

const endpointIs = (labels: Record<string, string>, endpoint: string): boolean => (labels.endpoint ?? '').replace(/^\//, '') === endpoint;

function envFor(natsUrl: string, extra: Record<string, string>): Record<string, string> {
  // Only what the edge needs: an inherited MONGODB_URI or OTEL_* would change what is being tested.
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NATS_URL: natsUrl, STORE: 'kv', LOG_LEVEL: 'warn', ...extra };
}

async function waitForHttp(url: string, proc: ChildProcess, output: () => string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`edge exited with ${proc.exitCode} before ${url} answered:\n${output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output()}`);
}

function run(cmd: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cmd, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd.join(' ')} exited with ${code}:\n${err}${out}`))));
  });
}

describe('edge metrics on METRICS_PORT', () => {
  const natsUrl = inject('natsUrl');
  const storeName = `metrics_${randomUUID().slice(0, 8)}`;
  const ipLimitPerMin = 12;
  let edge: ChildProcess;
  let logs = '';
  let base = '';
  let metricsUrl = '';
  let apiKey = '';

  beforeAll(async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const env = envFor(natsUrl, {
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      STORE_NAME: storeName,
      RATE_LIMIT_IP_PER_MIN: String(ipLimitPerMin),
    });
    const created = await run(['services/edge/src/keys-cli.ts', 'create', '--name', 'metrics test', '--credits', '10', '--rate-limit', '100', '--json'], env);
    const jsonLine = created
      .trim()
      .split('\n')
      .reverse()
      .find((l) => l.startsWith('{'));
    apiKey = (JSON.parse(jsonLine ?? '{}') as { key?: string }).key ?? '';
    expect(apiKey, `keys CLI printed no key:\n${created}`).not.toBe('');

    edge = spawn(process.execPath, ['services/edge/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    edge.stdout?.on('data', (d: Buffer) => {
      logs = (logs + d.toString()).slice(-8000);
    });
    edge.stderr?.on('data', (d: Buffer) => {
      logs = (logs + d.toString()).slice(-8000);
    });
    await waitForHttp(`${base}/health`, edge, () => logs);
    await waitForHttp(metricsUrl, edge, () => logs);
  });

  afterAll(async () => {
    if (edge && edge.exitCode === null) {
      const exited = new Promise((r) => edge.once('exit', r));
      edge.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (edge.exitCode === null) edge.kill('SIGKILL');
    }
  });

  async function scrape(): Promise<Sample[]> {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type') ?? '').toMatch(/text\/plain/);
    return parsePrometheusText(await res.text());
  }

  it('counts requests, errors, latency and rate-limit rejections by endpoint and status', async () => {
    const before = await scrape();
    const get = (path: string, key?: string) => fetch(`${base}${path}`, { headers: key ? { 'x-api-key': key } : {} });

    expect((await get('/brand?url=https://example.com')).status).toBe(401); // no key
    expect((await get('/company?url=https://example.com', 'ek_not_a_real_key')).status).toBe(401);
    expect((await get('/classify', apiKey)).status).toBe(400); // url missing
    expect((await get('/brand?url=ftp://example.com', apiKey)).status).toBe(400); // not http(s)
    expect((await get('/no-such-route')).status).toBe(404);
    // The per-IP window is small on purpose: keep asking until it refuses.
    let limited = 0;
    for (let i = 0; i < ipLimitPerMin + 5 && limited === 0; i += 1) {
      if ((await get('/no-such-route')).status === 429) limited += 1;
    }
    expect(limited, 'the per-IP rate limit never answered 429').toBe(1);

    // Metric readers collect on scrape, but the onResponse hook runs after the reply is sent.
    let after = await scrape();
    for (let i = 0; i < 20 && total(after, 'edge_requests_total', (l) => l.status === '429') === 0; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      after = await scrape();
    }
    const moved = (name: string, where?: (l: Record<string, string>) => boolean) => total(after, name, where) - total(before, name, where);

    expect(
      moved('edge_requests_total', (l) => endpointIs(l, 'brand') && l.status === '401'),
      'GET /brand without a key',
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved('edge_requests_total', (l) => endpointIs(l, 'company') && l.status === '401'),
      'GET /company with a bad key',
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved('edge_requests_total', (l) => endpointIs(l, 'classify') && l.status === '400'),
      'GET /classify without url',
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved('edge_requests_total', (l) => endpointIs(l, 'brand') && l.status === '400'),
      'GET /brand with an ftp url',
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved('edge_requests_total', (l) => l.status === '404'),
      'unknown route',
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved('edge_requests_total', (l) => l.status === '429'),
      'rate-limited request',
    ).toBe(1);
    // Every request above was an error response.
    expect(moved('edge_request_errors_total')).toBeGreaterThanOrEqual(6);
    expect(moved('edge_request_errors_total')).toBe(moved('edge_requests_total', (l) => Number(l.status) >= 400));
    expect(moved('edge_ratelimit_rejections_total', (l) => l.scope === 'ip')).toBe(1);
    // Latency: one observation per /brand request, and every bucket series is cumulative.
    expect(moved('edge_request_duration_count', (l) => endpointIs(l, 'brand'))).toBeGreaterThanOrEqual(2);
    expect(total(after, 'edge_request_duration_sum', (l) => endpointIs(l, 'brand'))).toBeGreaterThan(0);
    // No credits move for requests that never reached a renderer.
    expect(moved('edge_credits_charged_total')).toBe(0);
  });
});
