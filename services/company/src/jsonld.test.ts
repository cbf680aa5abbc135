import { describe, expect, it } from 'vitest';
import { readJsonLd } from './jsonld.ts';

describe('JSON-LD', () => {
  it('reads organisations inside @graph with addresses, contact points and a WebSite name', () => {
    const block = JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: 'Acme', url: 'https://acme.example' },
        {
          '@type': ['Organization', 'Corporation'],
          name: 'Acme',
          legalName: 'Acme Widgets, Inc.',
          email: 'mailto:hello@acme.example',
          address: { '@type': 'PostalAddress', streetAddress: '1 Main St', addressLocality: 'Springfield', addressRegion: 'IL', postalCode: '62701' },
          contactPoint: [{ '@type': 'ContactPoint', email: 'sales@acme.example' }],
        },
      ],
    });
    const data = readJsonLd([block]);
    expect(data.siteNames).toEqual(['Acme']);
    expect(data.orgs).toHaveLength(1);
    expect(data.orgs[0]).toMatchObject({ name: 'Acme', legalName: 'Acme Widgets, Inc.', role: 'main', emails: ['hello@acme.example', 'sales@acme.example'] });
    expect(data.orgs[0]!.addresses[0]).toMatchObject({ streetAddress: '1 Main St', postalCode: '62701' });
  });

  it('marks publishers and nested brands by role', () => {
    const article = {
      '@type': 'NewsArticle',
      headline: 'x',
      publisher: { '@type': 'Organization', name: 'Daily Planet' },
      author: { '@type': 'Organization', name: 'Wire Service' },
    };
    const product = {
      '@type': 'Product',
      name: 'Boot',
      brand: { '@type': 'Brand', name: 'Nike' },
      manufacturer: { '@type': 'Corporation', name: 'Nike, Inc.' },
    };
    const data = readJsonLd([JSON.stringify(article), JSON.stringify([product])]);
    expect(data.orgs.map((o) => [o.name, o.role])).toEqual([
      ['Daily Planet', 'publisher'],
      ['Wire Service', 'nested'],
      ['Nike, Inc.', 'nested'],
    ]);
  });

  // The parser's own tolerance (comments, control characters, trailing commas, glued objects) is
  // tested with it in shared/src/page/jsonld.test.ts.
  it('reads blocks through the tolerant shared parser; skips garbage', () => {
    expect(readJsonLd(['<!-- {"@type": "Organization", "name": "Acme",} -->']).orgs[0]?.name).toBe('Acme');
    expect(readJsonLd(['{"@type":"WebSite","name":"A"} {"@type":"Organization","name":"B"}']).orgs.map((o) => o.name)).toEqual(['B']);
    expect(readJsonLd(['{not json', '{"@type":"LocalBusiness","name":"Joe&#39;s Diner"}']).orgs[0]?.name).toBe("Joe's Diner");
  });
});
