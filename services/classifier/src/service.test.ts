import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ANALYZE_CLASSIFY } from '@enrich/shared/contracts';
import { connectNats, request, type NatsConnection } from '@enrich/shared/nats';
import { createLogger, type Started } from '@enrich/shared/runtime';
import { loadClassifierConfig } from './config.ts';
import { startClassifier } from './service.ts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';

let nc: NatsConnection;
let served: Started;
beforeAll(async () => {
  nc = await connectNats({ url: inject('natsUrl'), name: 'classifier-test' });
  served = await startClassifier({ nc, config: loadClassifierConfig({}), log: createLogger('classifier-test', 'silent') });
});
afterAll(async () => {
  await served?.stop();
  await nc?.drain();
});

describe('analyze.classify over NATS', () => {
  it('answers a snapshot with its category and description', async () => {
    const url = 'https://www.lakeside-realty.example/';
    const html = `<html lang="en"><head><title>Lakeside Realty | Homes for Sale in Madison</title>
      <meta name="description" content="Lakeside Realty helps families buy and sell homes around Madison, Wisconsin."></head>
      <body><h1>Find your next home</h1><nav><a href="/listings">Listings</a><a href="/sell">Sell your home</a><a href="/agents">Our realtors</a></nav></body></html>`;
    const got = await request(
      nc,
      ANALYZE_CLASSIFY,
      { requestId: randomUUID(), snapshot: snapshotFromHtml(html, url) },
      { deadline: Date.now() + 10_000, requestId: 'r-1' },
    );
    expect(got).toEqual({
      url,
      iab_id: 'IAB21-3',
      iab_parent_id: 'IAB21',
      category: 'Real Estate',
      subcategory: 'Buying/Selling Homes',
      description: 'Lakeside Realty helps families buy and sell homes around Madison, Wisconsin.',
    });
  });
});
