import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { pacedLoadInChild } from './paced-load.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server on 127.0.0.1 that answers at once, except that answering request `stallAt` blocks its event loop for `stallMs`. */
async function serve(stallAt: number, stallMs: number): Promise<string> {
  let n = 0;
  server = createServer((_req, res) => {
    if (++n === stallAt) {
      const until = performance.now() + stallMs;
      while (performance.now() < until) {
        // Busy: the whole process stops answering, as an edge in a long GC pause would.
      }
    }
    res.writeHead(n % 2 ? 200 : 401).end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
}

describe('pacedLoad', () => {
  it('sends at the rate whatever the server does, and counts a stall for every request it delayed', async () => {
    const url = await serve(40, 400);
    const r = await pacedLoadInChild(url, { rate: 200, durationS: 1, connections: 8 });
    expect(r.due).toBe(200);
    expect(r.answered).toBe(200);
    expect(r.errors).toBe(0);
    expect((r.statusCodes['200'] ?? 0) + (r.statusCodes['401'] ?? 0)).toBe(200);
    expect(r.statusCodes['401']).toBe(100);
    // The 400 ms stall starts about 200 ms in: the ~80 requests due during it wait for its end, so with
    // latency read from their due time more than 10% of all of them (p90) take over 100 ms and the
    // worst close to 400 ms. A closed-loop reading would have let the 8 connections wait and count
    // only 8 slow requests.
    expect(r.latencyMs.p90).toBeGreaterThan(100);
    expect(r.latencyMs.max).toBeGreaterThan(300);
    expect(r.latencyMs.p50).toBeLessThan(100);
  });
});
