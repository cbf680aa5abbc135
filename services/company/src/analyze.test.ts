import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompanyReplySchema } from '@enrich/shared/contracts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { analyzeCompany } from './analyze.ts';

const SITES = resolve(import.meta.dirname, '../../../test/fixtures/sites');
const ORIGIN = 'http://127.0.0.1:8080';
const requestId = '6f1f9a43-8a1e-4b9e-9d5c-6a0f3b3e2a11';

interface Expected {
  name: string;
  emails: string[];
  addresses: string[];
  followUp: string[];
  pages: string[];
  sourcesInclude?: string[];
}

function fixture(site: string, page: string) {
  const path = page === '/' ? 'index.html' : page.slice(1);
  return snapshotFromHtml(readFileSync(resolve(SITES, site, path), 'utf8'), `${ORIGIN}${page}`);
}

describe.each([
  ['company-acme', '/contact.html'],
  ['company-beispiel', '/impressum.html'],
  ['company-terms', '/legal/terms.html'],
  ['company-europa', '/mentions-legales.html'],
])('analyzeCompany on the %s fixture site', (site, followed) => {
  const expected = JSON.parse(readFileSync(resolve(SITES, site, 'expected.json'), 'utf8')) as { withoutFollow: Expected; withFollow: Expected };
  const abs = (paths: string[]): string[] => paths.map((p) => `${ORIGIN}${p}`);

  it('answers from the home page alone and proposes what to follow', () => {
    const reply = analyzeCompany({ requestId, snapshot: fixture(site, '/'), extraSnapshots: [] });
    expect(CompanyReplySchema.parse(reply)).toEqual(reply);
    const e = expected.withoutFollow;
    expect(reply.data).toMatchObject({ name: e.name, emails: e.emails, addresses: e.addresses, pages: abs(e.pages) });
    expect(reply.followUp).toEqual(abs(e.followUp));
  });

  it('merges the evidence of a followed page and proposes nothing more', () => {
    const reply = analyzeCompany({ requestId, snapshot: fixture(site, '/'), extraSnapshots: [fixture(site, followed)] });
    const e = expected.withFollow;
    expect(reply.data).toMatchObject({ name: e.name, emails: e.emails, addresses: e.addresses, pages: abs(e.pages) });
    expect(reply.data.sources).toEqual(expect.arrayContaining(e.sourcesInclude ?? []));
    expect(reply.followUp).toEqual([]);
    expect(reply.data.confidence).toBeGreaterThan(0.5);
  });
});

describe('analyzeCompany on an empty page', () => {
  it('returns an empty name, no data and zero confidence', () => {
    const snapshot = snapshotFromHtml('<html><head><title></title></head><body><p>Loading…</p></body></html>', 'https://example.org/');
    const reply = analyzeCompany({ requestId, snapshot, extraSnapshots: [] });
    expect(reply.data).toEqual({ name: '', brand_name: '', emails: [], addresses: [], sources: [], confidence: 0, pages: ['https://example.org/'] });
  });
});

describe('analyzeCompany names', () => {
  it('takes the legal name a company profile table gives (会社概要\'s 会社名, an about page\'s "Company name")', () => {
    const html = `<html><head><title>会社概要｜サンプル</title></head><body><h1>会社概要</h1>
      <table><tr><td>会社名</td><td>株式会社サンプル</td></tr><tr><td>設立</td><td>2001年</td></tr></table>
      <footer>お問い合わせ</footer></body></html>`;
    expect(analyzeCompany({ requestId, snapshot: snapshotFromHtml(html, 'https://www.sample.co.jp/company/'), extraSnapshots: [] }).data.name).toBe(
      '株式会社サンプル',
    );
    const about = `<html><head><title>About | Acme Trading</title></head><body><h2>Company profile</h2>
      <table><tr><td>Company name</td><td>Acme Trading Co., Ltd.</td></tr><tr><td>Founded</td><td>1998</td></tr></table>
      <footer>© 2024 Acme Trading</footer></body></html>`;
    expect(analyzeCompany({ requestId, snapshot: snapshotFromHtml(about, 'https://www.acmetrading.example/about'), extraSnapshots: [] }).data.name).toBe(
      'Acme Trading Co., Ltd.',
    );
  });

  it.each([
    ['https://www.sample.co.jp/', 'サンプル｜トップページ', '© 2024 サンプル株式会社', 'サンプル株式会社'],
    ['https://primer.example.ru/', 'Пример — главная', '© 2024 ООО «Пример»', 'ООО «Пример»'],
    ['https://www.orsted.example/', 'Ørsted', '© 2024 Ørsted A/S', 'Ørsted A/S'],
  ])('names the owner of a page written in another script or with letters beyond ASCII (%s)', (url, title, footer, name) => {
    const html = `<html><head><title>${title}</title></head><body><p>${title}</p><footer>${footer}</footer></body></html>`;
    expect(analyzeCompany({ requestId, snapshot: snapshotFromHtml(html, url), extraSnapshots: [] }).data.name).toBe(name);
  });

  it("answers the parent a JSON-LD organisation names when the site states no legal form of its own, and never the parent's address", () => {
    const jsonLd = (own: string) =>
      `<script type="application/ld+json">${JSON.stringify({
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: 'Snapgram',
        ...(own ? { legalName: own } : {}),
        address: { '@type': 'PostalAddress', streetAddress: '1 Photo Way', addressLocality: 'Menlo Park', addressRegion: 'CA', postalCode: '94025' },
        parentOrganization: {
          '@type': 'Organization',
          name: 'Bigco',
          legalName: 'Bigco Platforms, Inc.',
          address: { '@type': 'PostalAddress', streetAddress: '9 Parent Plaza', addressLocality: 'Wilmington', addressRegion: 'DE', postalCode: '19801' },
        },
      })}</script>`;
    const page = (own: string) =>
      snapshotFromHtml(
        `<html><head><title>Snapgram</title><meta property="og:site_name" content="Snapgram">${jsonLd(own)}</head><body><p>Share photos.</p><footer>© 2024 Snapgram</footer></body></html>`,
        'https://www.snapgram.example/',
      );
    const parent = analyzeCompany({ requestId, snapshot: page(''), extraSnapshots: [] }).data;
    expect(parent.name).toBe('Bigco Platforms, Inc.');
    expect(parent.brand_name).toBe('Snapgram');
    expect(parent.addresses).toEqual(['1 Photo Way, Menlo Park, CA 94025']);
    // The organisation's own strong legal name stays first.
    expect(analyzeCompany({ requestId, snapshot: page('Snapgram, LLC'), extraSnapshots: [] }).data.name).toBe('Snapgram, LLC');
  });

  it('answers the legal entity as name and the site name as brand_name', () => {
    const html = `<html><head><title>New Homes in Texas | Darling Homes</title><meta property="og:site_name" content="Darling Homes"></head>
      <body><header><a href="/"><img src="/img/logo.png" alt="Darling Homes logo"></a></header><p>Darling Homes builds new homes.</p>
      <footer>Copyright © 2007 - Taylor Morrison, Inc. All rights reserved.</footer></body></html>`;
    const reply = analyzeCompany({ requestId, snapshot: snapshotFromHtml(html, 'https://www.darlinghomes.com/'), extraSnapshots: [] });
    expect(reply.data.name).toBe('Taylor Morrison, Inc.');
    expect(reply.data.brand_name).toBe('Darling Homes');
  });
});

describe('analyzeCompany and a text line that repeats the title', () => {
  it('counts the title once: its longer spelling does not outweigh the name the page writes', () => {
    const title = 'Braces - Acme Braces Smith Orthodontics | Teeth Straightening Springfield';
    const html = `<html><head><title>${title}</title></head><body>
      <p>Everyone at Acme Braces was friendly. I would recommend Acme Braces to everyone.</p>
      <p>Acme Braces, 12 Main Street, Springfield</p><p>${title}</p></body></html>`;
    const reply = analyzeCompany({ requestId, snapshot: snapshotFromHtml(html, 'http://www.acmebraces.example/'), extraSnapshots: [] });
    expect(reply.data.name).toBe('Acme Braces');
  });

  it('reads no address from the title shown again', () => {
    const title = 'Ice Cream Truck (203) 367-3000 - 325 Cherry Street Bridgeport, CT 06605';
    const html = `<html><head><title>${title}</title></head><body><p>Rent an ice cream truck for your party.</p><p>${title}</p></body></html>`;
    const reply = analyzeCompany({ requestId, snapshot: snapshotFromHtml(html, 'http://www.icecream.example/'), extraSnapshots: [] });
    expect(reply.data.addresses).toEqual([]);
  });
});
