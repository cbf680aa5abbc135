import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { readMicrodata } from './microdata.ts';

describe('microdata and RDFa', () => {
  it('reads an organisation with a nested PostalAddress and an email', () => {
    const root = parse(`<body><div itemscope itemtype="https://schema.org/WebPage"><footer itemscope itemtype="http://schema.org/LocalBusiness">
      <span itemprop="name">Joe's Plumbing</span>
      <a itemprop="email" href="mailto:joe@joesplumbing.example">Email Joe</a>
      <div itemprop="address" itemscope itemtype="http://schema.org/PostalAddress">
        <span itemprop="streetAddress">928 2nd St., Suite 300B</span>
        <span itemprop="addressLocality">Sacramento</span>, <span itemprop="addressRegion">CA</span> <span itemprop="postalCode">95814</span>
      </div>
      <div itemscope itemtype="http://schema.org/Review"><div itemprop="author" itemscope itemtype="http://schema.org/Organization"><span itemprop="name">Yelp</span></div></div>
    </footer></div></body>`);
    const data = readMicrodata(root);
    expect(data.orgs.map((o) => [o.name, o.role])).toEqual([
      ["Joe's Plumbing", 'main'],
      ['Yelp', 'nested'],
    ]);
    expect(data.orgs[0]!.emails).toEqual(['joe@joesplumbing.example']);
    expect(data.orgs[0]!.addresses[0]).toMatchObject({
      streetAddress: '928 2nd St., Suite 300B',
      addressLocality: 'Sacramento',
      addressRegion: 'CA',
      postalCode: '95814',
    });
  });

  it('reads RDFa typeof/property with the schema: prefix', () => {
    const root = parse(`<div vocab="http://schema.org/" typeof="Organization"><span property="name">Beispiel GmbH</span>
      <div property="address" typeof="PostalAddress"><span property="streetAddress">Musterstraße 12</span><span property="postalCode">10115</span><span property="addressLocality">Berlin</span></div></div>`);
    const data = readMicrodata(root);
    expect(data.orgs[0]).toMatchObject({ name: 'Beispiel GmbH', role: 'main' });
    expect(data.orgs[0]!.addresses[0]).toMatchObject({ streetAddress: 'Musterstraße 12', postalCode: '10115', addressLocality: 'Berlin' });
  });
});
