/**
 * /enrich with the page part handed out early (RenderRequest.earlySnapshotTo), on a private
 * nats-server with stand-in services: company and classifier start from the early part; a reply that
 * names another page part (the page replaced its document) starts them again from it; a render that
 * fails after the hand-out is the answer, with nothing charged; brand starts from visuals handed out
 * before the capture ended when the reply names the same ones, and is asked again when it does not.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EnrichResponseSchema, type RenderRequest, type RenderResult } from '@enrich/shared/contracts';
import { putSnapshot, type NatsConnection } from '@enrich/shared/nats';
import { TargetUnreachableError } from '@enrich/shared/errors';
import { startNatsServer, type NatsServerHandle } from '../../../test/support/nats-server.ts';
import { fakeRenderResult, serveFakes, startEdge, type EdgeHarness } from '../../../test/support/edge-harness.ts';

let nats: NatsServerHandle;
let h: EdgeHarness;
let fakes: ReturnType<typeof serveFakes>;
let render: (req: RenderRequest) => Promise<RenderResult>;

beforeAll(async () => {
  nats = await startNatsServer();
  h = await startEdge(nats.url, { requestBudgetMs: 10_000 });
  fakes = serveFakes(h.nc, { render: (req) => render(req) });
});
afterAll(async () => {
  await fakes?.stop();
  await h?.close();
  await nats?.stop();
});

/** As the renderer does: the page part of a document stored and its reference published to the inbox. */
async function handOut(nc: NatsConnection, req: RenderRequest, finalUrl: string): Promise<void> {
  const part = { ...fakeRenderResult(req, finalUrl).snapshot!, logoRasters: [], thumbnail: null };
  const ref = await putSnapshot(nc, part);
  nc.publish(req.earlySnapshotTo!, JSON.stringify({ snapshotRef: ref }));
  await nc.flush();
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('company and classifier start from the early part; when the reply names another page part they are asked again from it', async () => {
  render = async (req) => {
    expect(req.earlySnapshotTo).toMatch(/^_INBOX\./);
    await handOut(h.nc, req, 'https://acme.test/first-document');
    await pause(300); // the capture and the logo rasters
    return fakeRenderResult(req, 'https://acme.test/replaced-document'); // stored whole by the stand-in: another reference
  };
  const { key } = await h.createKey({ credits: 10 });
  const before = fakes.calls.company.length;
  const res = await h.app.inject({ url: '/enrich?url=acme.test', headers: { 'x-api-key': key } });
  expect(res.statusCode).toBe(200);
  const data = EnrichResponseSchema.parse(res.json()).data;
  expect(fakes.calls.company.slice(before).map((c) => c.snapshot.finalUrl)).toEqual([
    'https://acme.test/first-document',
    'https://acme.test/replaced-document',
  ]);
  expect(data.company.pages).toEqual(['https://acme.test/replaced-document']);
});

it('a render that fails after the hand-out is the answer (502), nothing charged', async () => {
  render = async (req) => {
    await handOut(h.nc, req, 'https://acme.test/');
    await pause(200);
    throw new TargetUnreachableError(`${req.url} could not be reached: net::ERR_CONNECTION_RESET`);
  };
  const { key, id } = await h.createKey({ credits: 10 });
  const before = fakes.calls.company.length;
  const res = await h.app.inject({ url: '/enrich?url=acme.test', headers: { 'x-api-key': key } });
  expect(res.statusCode).toBe(502);
  expect(res.json().error).toMatch(/could not be reached: net::ERR_CONNECTION_RESET/);
  expect(fakes.calls.company.length).toBe(before + 1); // it did start early
  expect((await h.getKey(id)).credits_used).toBe(0);
});

/** As the renderer does when the logo was read from its file: the page part, then its visuals, each stored and published. */
async function handOutWithVisuals(nc: NatsConnection, req: RenderRequest): Promise<{ result: RenderResult; snapshotRef: string; visualsRef: string }> {
  const result = fakeRenderResult(req, 'https://acme.test/');
  const { styles, stylesheets, scripts, thumbnail, logoRasters, resources, truncated } = result.snapshot!;
  const snapshotRef = await putSnapshot(nc, { ...result.snapshot!, thumbnail: null, logoRasters: [] });
  nc.publish(req.earlySnapshotTo!, JSON.stringify({ snapshotRef }));
  const visualsRef = await putSnapshot(nc, { styles, stylesheets, scripts, thumbnail, logoRasters, resources, truncated });
  nc.publish(req.earlySnapshotTo!, JSON.stringify({ snapshotRef, visualsRef }));
  await nc.flush();
  return { result, snapshotRef, visualsRef };
}

it('brand starts from visuals handed out before the capture ends; the reply naming them confirms it and gives the screenshot URL', async () => {
  const { key } = await h.createKey({ credits: 10 });
  const before = fakes.calls.brand.length;
  let askedDuringCapture = -1;
  let screenshotUrl = '';
  render = async (req) => {
    const { result, snapshotRef, visualsRef } = await handOutWithVisuals(h.nc, req);
    await pause(300); // the capture
    askedDuringCapture = fakes.calls.brand.length - before;
    screenshotUrl = result.screenshot!.url;
    return { ...result, snapshot: null, snapshotRef, visualsRef };
  };
  const res = await h.app.inject({ url: '/enrich?url=acme.test', headers: { 'x-api-key': key } });
  expect(res.statusCode).toBe(200);
  const data = EnrichResponseSchema.parse(res.json()).data;
  expect(askedDuringCapture).toBe(1);
  expect(fakes.calls.brand.length - before).toBe(1);
  expect(fakes.calls.brand.at(-1)!.screenshotUrl).toBe(''); // asked before the capture existed
  expect(data.images.screenshot_url).toBe(screenshotUrl);
  expect(data.images.screenshot_url).toMatch(/^http:\/\/assets\.test\/assets\//);
});

it('brand is asked again when the reply names other visuals than those handed out', async () => {
  const { key } = await h.createKey({ credits: 10 });
  const before = fakes.calls.brand.length;
  render = async (req) => {
    const { result, snapshotRef } = await handOutWithVisuals(h.nc, req);
    await pause(200);
    const { styles, stylesheets, scripts, thumbnail, logoRasters, resources, truncated } = result.snapshot!;
    const visualsRef = await putSnapshot(h.nc, { styles, stylesheets, scripts, thumbnail, logoRasters, resources, truncated }); // made after the capture
    return { ...result, snapshot: null, snapshotRef, visualsRef };
  };
  const res = await h.app.inject({ url: '/enrich?url=acme.test', headers: { 'x-api-key': key } });
  expect(res.statusCode).toBe(200);
  const asked = fakes.calls.brand.slice(before).map((b) => b.screenshotUrl);
  expect(asked).toHaveLength(2);
  expect(asked[0]).toBe('');
  expect(asked[1]).toMatch(/^http:\/\/assets\.test\/assets\//);
  expect(EnrichResponseSchema.parse(res.json()).data.images.screenshot_url).toBe(asked[1]);
});
