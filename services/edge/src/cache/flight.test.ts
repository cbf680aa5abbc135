/**
 * The single flight's recovery on real NATS: a lock whose leader died (taken, never renewed, never
 * answered) holds followers back only until it expires; then one of them does the work, once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { SingleFlight } from './flight.ts';

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connect({ servers: inject('natsUrl') });
});
afterAll(async () => {
  await nc?.close();
});

it('followers of a dead leader take over once its lock expires, and do the work once', async () => {
  const name = `flight_${randomUUID().slice(0, 8)}`;
  const flights = [new SingleFlight({ nc, name, leaseTtlMs: 1_000 }), new SingleFlight({ nc, name, leaseTtlMs: 1_000 })];
  await Promise.all(flights.map((f) => f.init()));
  // The dead leader: it took the lock and will never renew it or publish an outcome.
  await (await new Kvm(nc).open(`${name}_flight`)).create('k', 'dead');
  let produced = 0;
  const started = Date.now();
  const run = (f: SingleFlight) =>
    f.run({
      key: 'k',
      deadline: Date.now() + 10_000,
      lookup: async () => null,
      produce: async () => {
        produced++;
        await new Promise((r) => setTimeout(r, 200));
        return { storedAt: Date.now(), data: { n: produced }, json: JSON.stringify({ n: produced }) };
      },
    });
  const results = await Promise.all([run(flights[0]!), run(flights[1]!), run(flights[0]!), run(flights[1]!)]);
  expect(produced).toBe(1);
  expect(results.map((r) => r.data)).toEqual(Array(4).fill({ n: 1 }));
  expect(results.filter((r) => !r.shared)).toHaveLength(1);
  // Held back by the dead lock for about its TTL, not for the whole budget.
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

it('a leader working longer than the lock TTL keeps its lock: nobody else starts the work', async () => {
  const name = `flight_${randomUUID().slice(0, 8)}`;
  const flight = new SingleFlight({ nc, name, leaseTtlMs: 600 });
  await flight.init();
  let produced = 0;
  const run = () =>
    flight.run({
      key: 'slow',
      deadline: Date.now() + 10_000,
      lookup: async () => null,
      produce: async () => {
        produced++;
        await new Promise((r) => setTimeout(r, 2_000));
        return { storedAt: Date.now(), data: 'done', json: '"done"' };
      },
    });
  const results = await Promise.all([run(), run(), run()]);
  expect(produced).toBe(1);
  expect(results.map((r) => r.data)).toEqual(['done', 'done', 'done']);
});
