/** Snapshots by reference on real JetStream: stored once (the page part early, its visuals apart), read by each analyzer, deleted after. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createInbox, type NatsConnection } from '@nats-io/transport-node';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { BrandMessageSchema } from '../contracts/brand.ts';
import { RenderRequestSchema, type RenderRequest, type RenderResult } from '../contracts/render.ts';
import { EarlySnapshotSchema, SnapshotRefSchema, type Snapshot } from '../contracts/snapshot.ts';
import { BadMessageError, UnavailableError } from '../errors.ts';
import { connectNats } from './connect.ts';
import { deleteSnapshots, earlyHandOut, putSnapshot, readSnapshot, storedByRef, withSnapshots } from './snapshot-store.ts';

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

it('hands the page part out early: stored, its reference published to the inbox once; the reply names it with the visuals stored apart', async () => {
  const full = {
    ...page('home'),
    styles: { colors: [{ value: 'rgb(1, 2, 3)', property: 'color', role: 'body', area: 10, count: 1 }], fonts: [], rootVariables: { '--brand': '#010203' } },
    stylesheets: [{ url: 'https://acme.test/site.css', text: 'body { color: #010203 }' }],
    thumbnail: { png: 'iVBORw0KGgo=', width: 1, height: 1 },
    siteIcons: { manifest: [], favicon: null },
  } as Snapshot;
  // The page part carries no styles: they are the brand analyzer's, collected after it went out, and travel with the visuals.
  const part = { ...full, styles: { colors: [], fonts: [], rootVariables: {} }, stylesheets: [], thumbnail: null, logoRasters: [], resources: [] } as Snapshot;
  delete (part as Partial<Snapshot>).siteIcons;
  const inbox = createInbox();
  const published: string[] = [];
  const sub = nc.subscribe(inbox, { callback: (_e, m) => void published.push(EarlySnapshotSchema.parse(JSON.parse(m.string())).snapshotRef) });
  const req = { snapshot: true, snapshotByRef: true, earlySnapshotTo: inbox } as RenderRequest;
  const log = { warn: () => undefined };
  expect(earlyHandOut(nc, { ...req, earlySnapshotTo: undefined }, log)).toBeNull();
  expect(earlyHandOut(nc, { ...req, snapshotByRef: false }, log)).toBeNull();

  const early = earlyHandOut(nc, req, log)!;
  early.pagePart(part);
  // A document replaced while it is read gives a second page part: stored and named in the reply, not published again.
  const second = { ...part, title: 'Acme home, replaced' };
  early.pagePart(second);
  const reply = await early.reply({ snapshot: { ...full, title: second.title }, snapshotRef: null } as unknown as RenderResult);
  await nc.flush();
  expect(published).toHaveLength(1);
  expect(await readSnapshot(nc, published[0]!)).toEqual(part);
  expect(reply.snapshot).toBeNull();
  expect(reply.snapshotRef).not.toBe(published[0]);
  expect(await readSnapshot(nc, reply.snapshotRef!)).toEqual(second);
  // Read with its visuals, the snapshot is the whole one; the brand analyzer's message does that.
  expect(await readSnapshot(nc, reply.snapshotRef!, reply.visualsRef!)).toEqual({ ...full, title: second.title });
  expect((await withSnapshots(nc, { requestId: 'r4', snapshotRef: reply.snapshotRef!, visualsRef: reply.visualsRef! })).snapshot.thumbnail).toEqual(
    full.thumbnail,
  );
  await deleteSnapshots(nc, [published[0]!, reply.snapshotRef!, reply.visualsRef!]);
  await expect(readSnapshot(nc, reply.snapshotRef!, reply.visualsRef!)).rejects.toThrow(UnavailableError);
  sub.unsubscribe();
});

it('hands the visuals out early when they are ready before the capture: published with the page part, named again by the reply', async () => {
  const raster = { png: 'iVBORw0KGgo=', width: 1, height: 1, ref: 'img:0' };
  const siteIcons = { manifest: [], favicon: null };
  const part = { ...page('home'), thumbnail: null, logoRasters: [] } as Snapshot;
  // The brand analyzer's part (collected after the page part went out) travels with the visuals: the same objects in the finished snapshot.
  const visuals = {
    styles: part.styles,
    stylesheets: part.stylesheets,
    scripts: part.scripts,
    thumbnail: null,
    logoRasters: [raster],
    siteIcons,
    resources: [],
    truncated: [],
  };
  const inbox = createInbox();
  const published: Array<{ snapshotRef: string; visualsRef?: string }> = [];
  const sub = nc.subscribe(inbox, { callback: (_e, m) => void published.push(EarlySnapshotSchema.parse(JSON.parse(m.string()))) });
  const req = { snapshot: true, snapshotByRef: true, earlySnapshotTo: inbox } as RenderRequest;
  const early = earlyHandOut(nc, req, { warn: () => undefined })!;
  early.pagePart(part);
  early.visuals({ ...part }, visuals); // not the page part handed out: ignored
  early.visuals(part, visuals);
  early.visuals(part, visuals); // once only
  // The finished snapshot: the same raster and icons, a network log that grew since.
  const finished = {
    ...part,
    logoRasters: [{ ...raster }],
    siteIcons,
    resources: [{ url: 'https://acme.test/font.woff2', type: 'font', status: 200 }],
  } as Snapshot;
  const reply = await early.reply({ snapshot: finished, snapshotRef: null } as unknown as RenderResult);
  await nc.flush();
  expect(published).toEqual([{ snapshotRef: reply.snapshotRef }, { snapshotRef: reply.snapshotRef, visualsRef: reply.visualsRef }]);
  expect(await readSnapshot(nc, reply.snapshotRef!, reply.visualsRef!)).toEqual({ ...part, ...visuals });

  // Other rasters in the reply (the early ones were not used): the reply's visuals are stored apart.
  const again = earlyHandOut(nc, { ...req, earlySnapshotTo: createInbox() }, { warn: () => undefined })!;
  again.pagePart(part);
  again.visuals(part, visuals);
  const other = { ...finished, logoRasters: [{ ...raster, png: 'iVBORw0KGgoAAAA=' }] } as Snapshot;
  const replied = await again.reply({ snapshot: other, snapshotRef: null } as unknown as RenderResult);
  expect((await readSnapshot(nc, replied.snapshotRef!, replied.visualsRef!)).logoRasters).toEqual(other.logoRasters);
  sub.unsubscribe();
});

it('without a stored page part the reply is the whole snapshot, by reference or inline', async () => {
  const snapshot = page('home');
  const req = { snapshot: true, snapshotByRef: true, earlySnapshotTo: createInbox() } as RenderRequest;
  const log = { warn: () => undefined };
  // No page part handed out (a render that asked for none): stored whole.
  const whole = await earlyHandOut(nc, req, log)!.reply({ snapshot, snapshotRef: null } as unknown as RenderResult);
  expect(whole.visualsRef).toBeUndefined();
  expect(await readSnapshot(nc, whole.snapshotRef!)).toEqual(snapshot);
  await deleteSnapshots(nc, [whole.snapshotRef!]);
  // The store is gone: the page part fails quietly and the snapshot goes inline.
  const closed = await connectNats({ url: inject('natsUrl'), name: 'closed-early' });
  await closed.close();
  const early = earlyHandOut(closed, req, log)!;
  early.pagePart(snapshot);
  const inline = await early.reply({ snapshot, snapshotRef: null } as unknown as RenderResult);
  expect(inline.snapshot).toEqual(snapshot);
});

it('the brand message takes visualsRef only beside a snapshotRef', () => {
  const base = { requestId: randomUUID(), screenshotUrl: '', options: { screenshotColors: null, css: false, html: false, javascript: false } };
  const ref = `enrich-snapshots/${randomUUID()}`;
  const visualsRef = `enrich-snapshots/${randomUUID()}`;
  expect(BrandMessageSchema.safeParse({ ...base, snapshotRef: ref, visualsRef }).success).toBe(true);
  const inline = BrandMessageSchema.safeParse({ ...base, snapshot: page('home'), visualsRef });
  expect(inline.success).toBe(false);
  expect(inline.error?.issues.map((i) => i.message)).toEqual(['visualsRef only with snapshotRef']);
});

it('an early inbox must be an inbox subject', () => {
  const base = {
    requestId: randomUUID(),
    url: 'https://acme.test/',
    viewport: { width: 800, height: 600 },
    screenshot: null,
    snapshot: true,
    scripts: false,
    visuals: true,
  };
  expect(RenderRequestSchema.safeParse({ ...base, earlySnapshotTo: createInbox() }).success).toBe(true);
  for (const subject of ['render.page', '_INBOX.>', '_INBOX.a *', 'analyze.brand'])
    expect(RenderRequestSchema.safeParse({ ...base, earlySnapshotTo: subject }).success, subject).toBe(false);
});
