/** Snapshots by reference on real JetStream: stored once, read by each analyzer, deleted after. */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import type { RenderRequest, RenderResult } from '../contracts/render.ts';
import { SnapshotRefSchema } from '../contracts/snapshot.ts';
import { BadMessageError, UnavailableError } from '../errors.ts';
import { connectNats } from './connect.ts';
import { deleteSnapshots, putSnapshot, readSnapshot, storedByRef, withSnapshots } from './snapshot-store.ts';

let nc: NatsConnection;
beforeAll(async () => {
  nc = await connectNats({ url: inject('natsUrl'), name: 'snapshot-store-test' });
});
afterAll(async () => {
  await nc?.close();
});

const page = (path: string) =>
  snapshotFromHtml(`<html><head><title>Acme ${path}</title></head><body><p>${'word '.repeat(5000)}</p></body></html>`, `https://acme.test/${path}`);

it('stores a snapshot once and reads it back by reference, equal to what was stored', async () => {
  const snapshot = page('home');
  const ref = await putSnapshot(nc, snapshot);
  expect(SnapshotRefSchema.safeParse(ref).success).toBe(true);
  expect(await readSnapshot(nc, ref)).toEqual(snapshot);
  // Read as often as there are analyzers; gone once deleted, with a retryable error.
  expect((await readSnapshot(nc, ref)).title).toBe('Acme home');
  await deleteSnapshots(nc, [ref]);
  await expect(readSnapshot(nc, ref)).rejects.toThrow(UnavailableError);
});

it("turns an analyzer's message into its request: main snapshot and extra pages by reference or inline", async () => {
  const [home, contact, imprint] = [page('home'), page('contact'), page('imprint')];
  const refs = [await putSnapshot(nc, home), await putSnapshot(nc, contact)];
  const req = await withSnapshots(nc, { requestId: 'r1', snapshotRef: refs[0], extraSnapshots: [imprint], extraSnapshotRefs: [refs[1]!] });
  expect(req).toEqual({ requestId: 'r1', snapshot: home, extraSnapshots: [imprint, contact] });
  expect(await withSnapshots(nc, { requestId: 'r2', snapshot: home })).toEqual({ requestId: 'r2', snapshot: home });
  await expect(withSnapshots(nc, { requestId: 'r3' } as { requestId: string; snapshot?: undefined })).rejects.toThrow(BadMessageError);
  await deleteSnapshots(nc, refs);
});

it("the renderer's reply carries the reference when asked, the snapshot inline otherwise or when the store fails", async () => {
  const snapshot = page('home');
  const result = { snapshot, snapshotRef: null } as unknown as RenderResult;
  const req = (byRef: boolean) => ({ snapshotByRef: byRef }) as RenderRequest;
  const warnings: string[] = [];
  const log = { warn: (_o: object, msg: string) => void warnings.push(msg) };
  expect(await storedByRef(nc, req(false), result, log)).toBe(result);
  const byRef = await storedByRef(nc, req(true), result, log);
  expect(byRef.snapshot).toBeNull();
  expect(await readSnapshot(nc, byRef.snapshotRef!)).toEqual(snapshot);
  await deleteSnapshots(nc, [byRef.snapshotRef!]);
  const closed = await connectNats({ url: inject('natsUrl'), name: 'closed' });
  await closed.close();
  expect(await storedByRef(closed, req(true), result, log)).toBe(result);
  expect(warnings).toEqual(['snapshot store failed; the snapshot goes inline']);
});
