/**
 * The blind synthetic probe pages (test/fixtures/probes, README there): the company analyzer names
 * every page's legal entity (or brand, where none is stated), and the classifier keeps its tier-1
 * count. Offline, from the saved HTML under each page's own host name, as offline-company.ts reads
 * the corpus.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClassifier } from '../../services/classifier/src/classifier.ts';
import { loadSentenceEncoder } from '../../services/classifier/src/embed.ts';
import { createEmbeddedClassifier } from '../../services/classifier/src/providers/embedded.ts';
import { analyzeBrand } from '../../services/brand/src/analyze.ts';
import { analyzeCompany } from '../../services/company/src/analyze.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { knownLogoFound } from './score-brand.ts';
import { addressMatches, companyNameMatches, legalNameMatches } from './score-company.ts';

const ROOT = new URL('../fixtures/probes/', import.meta.url).pathname;

interface CompanyLabel {
  file: string;
  host: string;
  path?: string;
  expected_name: string;
  acceptable?: string[];
  brand_name: string;
  legal_stated: boolean;
  kind: string;
}
interface ClassifyLabel {
  file: string;
  host: string;
  path?: string;
  tier1: string;
  tier2: string;
  also_ok_tier2?: string[];
  /** Other tier-1 ids the set's author accepts too (classify-8, where two trades are both defensible). */
  also_ok_tier1?: string[];
}

const labels = <T>(set: string): T[] =>
  readFileSync(join(ROOT, set, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
const page = (set: string, l: { file: string; host: string; path?: string }) => {
  const url = `https://${l.host}${l.path ?? '/'}`;
  return { url, snapshot: snapshotFromHtml(readFileSync(join(ROOT, set, l.file), 'utf8'), url) };
};

const companySets = readdirSync(ROOT).filter((d) => d.startsWith('company-'));
/** Sets whose every page is answered right; the others are held to a count (README there). */
const ALL_RIGHT = ['company-1', 'company-2', 'company-3'];
const companyAnswer = (set: string, l: CompanyLabel) => {
  const { snapshot } = page(set, l);
  const name = analyzeCompany({ requestId: randomUUID(), snapshot, extraSnapshots: [] }).data.name ?? '';
  const expected = [l.expected_name, ...(l.acceptable ?? [])];
  return { name, right: expected.some((e) => companyNameMatches(name, e)), legalRight: expected.some((e) => legalNameMatches(name, e)) };
};

describe('company names on the blind probe pages', () => {
  it('has the twenty-five sets', () => {
    expect(companySets.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))).toEqual(Array.from({ length: 25 }, (_, i) => `company-${i + 1}`));
  });

  for (const set of ALL_RIGHT) {
    it.each(labels<CompanyLabel>(set).map((l) => [l.file, l] as const))(`${set} %s`, (_file, l) => {
      const { name, right, legalRight } = companyAnswer(set, l);
      expect(right, `${l.kind}: got "${name}", expected "${l.expected_name}"`).toBe(true);
      if (l.legal_stated) expect(legalRight).toBe(true);
    });
  }

  it.each([
    ['company-4', 28], // names that are no name
    ['company-5', 30], // a legal entity stated once beside a brand
    ['company-6', 30], // inner pages: contact, about, locations, team
    ['company-7', 30], // a cross-section: small businesses, Europe, SaaS, nonprofits, articles, shops
    ['company-8', 30], // franchises, dealer groups, health systems, five regions
    ['company-9', 30], // site builders, a legal entity stated unusually, people-named businesses, inner pages
    ['company-10', 30], // a legal entity stated once in 22 wordings, 15 countries; homepages, about, legal and contact pages
    ['company-11', 28], // small European organisations in their own languages, 11 languages, imprints and legal pages
    ['company-12', 29], // Latin America and Central, Eastern and Southern Europe in their own languages, 20 languages
    ['company-13', 29], // Asia, the Middle East and Africa in their own languages and scripts
    ['company-14', 30], // English: a legal entity stated once in wordings not seen before, other companies' names as traps
    ['company-15', 29], // names that are no name most prominent: placeholders, headings, cities, people, bare hosts, platforms
    ['company-16', 30], // the long tail of older small-business sites: homepages, contact and about pages of nine countries
    ['company-17', 29], // modern business sites: other companies' legal names on every wall, the site's own stated once or not at all
    ['company-18', 30], // corporate and consumer-brand sites: group, regional and trademark entities, app-store and partner notices
    ['company-19', 30], // article pages of news sites, magazines and blogs: the publisher, not the companies in the story
    ['company-20', 30], // professional firms and mid-size B2B companies: LLPs, trading names, registration lines, regulators, networks
    ['company-21', 30], // a customer's mix: business homepages and inner pages, articles, big brands; four European languages
    ['company-22', 30], // shops' product, category and policy pages: manufacturers, EU product-safety blocks, sellers, platforms
    ['company-23', 30], // legal and policy pages: terms, privacy, cookies, imprints; processors, authorities, DPOs, agencies
    ['company-24', 22], // public sector, education, health and nonprofits: statutory names, parents, portals (held out at 17)
    ['company-25', 29], // English sites of emerging markets: local legal forms and registration lines (held out at 28)
  ] as const)('%s: at least %i of 30 names right', (set, least) => {
    const rows = labels<CompanyLabel>(set);
    expect(rows).toHaveLength(30);
    expect(rows.filter((l) => companyAnswer(set, l).right).length).toBeGreaterThanOrEqual(least);
  });
});

describe('classification of the blind probe pages', () => {
  // Tier-1 right on at least as many pages as now: classify-1 27 of 36, classify-2 29 and classify-3 31 (both held out).
  it.each([
    ['classify-1', 27],
    ['classify-2', 29],
    ['classify-3', 31],
  ] as const)('%s keeps tier-1 on at least %i of its 36 pages', { timeout: 120_000 }, async (set, least) => {
    const classifier = createClassifier({ embedded: createEmbeddedClassifier(await loadSentenceEncoder()) });
    const rows = labels<ClassifyLabel>(set);
    let tier1 = 0;
    for (const l of rows) {
      const { url, snapshot } = page(set, l);
      const got = await classifier.classify(snapshot, url);
      if (got.iab_parent_id === l.tier1) tier1++;
    }
    expect(rows).toHaveLength(36);
    expect(tier1).toBeGreaterThanOrEqual(least);
  });

  // Homepages in other European languages, read by the trade names of their language: classify-4
  // (held out at 10 of 24, the names built on it), classify-5 (written after them, held out at 17) and
  // classify-6 (languages that write compounds, written after the compound reading, held out at 21).
  it.each([
    ['classify-4', 22],
    ['classify-5', 17],
    ['classify-6', 21],
  ] as const)('%s keeps tier-1 on at least %i of its 24 pages', { timeout: 120_000 }, async (set, least) => {
    const classifier = createClassifier({ embedded: createEmbeddedClassifier(await loadSentenceEncoder()) });
    const rows = labels<ClassifyLabel>(set);
    let tier1 = 0;
    for (const l of rows) {
      const { url, snapshot } = page(set, l);
      if ((await classifier.classify(snapshot, url)).iab_parent_id === l.tier1) tier1++;
    }
    expect(rows).toHaveLength(24);
    expect(tier1).toBeGreaterThanOrEqual(least);
  });
});

describe('classification of the blind sets of 30 pages', () => {
  // classify-7: English articles on 22 topics, 11 off the publisher's trade (held out at 24 of 30).
  // classify-8: English homepages of trades easily confused (IT firms, building trades, professional
  // services, health, big brands; held out at 29 of 30), an author's second tier-1 accepted where given.
  // classify-9: homepages of unusual trades (a bell foundry, a luthier, a sailmaker; held out at 19 of 30).
  // classify-10: homepages of big corporations and consumer brands (held out at 27 of 30).
  // classify-11: the pages of company-16, older small-business and organisation sites (held out at 26 of 30).
  // classify-12: English articles on 21 topics, 12 off the publisher's trade, heavy chrome (held out at 22 of 30).
  // classify-13: English articles of mainstream news sites and magazines, rails on other topics (held out at 25 of 30,
  // 27 since a rail's linked headlines are no part of the body).
  // classify-14: the pages of company-21, a customer's mix in five languages (held out at 22 of 30).
  // classify-15: the pages of company-24, public sector, education, health and nonprofits (held out at 26 of 30).
  // classify-16: inner pages (contact, about, team, pricing, services) of small businesses of 19 trades (held out at 29 of 30).
  it.each([
    ['classify-7', 24],
    ['classify-8', 29],
    ['classify-9', 19],
    ['classify-10', 27],
    ['classify-11', 26],
    ['classify-12', 22],
    ['classify-13', 27],
    ['classify-14', 22],
    ['classify-15', 26],
    ['classify-16', 29],
  ] as const)('%s keeps tier-1 on at least %i of its 30 pages', { timeout: 120_000 }, async (set, least) => {
    const classifier = createClassifier({ embedded: createEmbeddedClassifier(await loadSentenceEncoder()) });
    const rows = labels<ClassifyLabel>(set);
    let tier1 = 0;
    for (const l of rows) {
      const { url, snapshot } = page(set, l);
      const got = (await classifier.classify(snapshot, url)).iab_parent_id;
      if (got === l.tier1 || (l.also_ok_tier1 ?? []).includes(got)) tier1++;
    }
    expect(rows).toHaveLength(30);
    expect(tier1).toBeGreaterThanOrEqual(least);
  });
});

interface EmailProbeLabel {
  file: string;
  host: string;
  path?: string;
  emails: string[];
  not_emails: string[];
}

/** What the company analyzer finds of a set's labelled emails: found, and other strings taken. */
function emailCounts(set: string) {
  const counts = { wanted: 0, found: 0, others: 0 };
  for (const l of labels<EmailProbeLabel>(set)) {
    const { snapshot } = page(set, l);
    const got = analyzeCompany({ requestId: randomUUID(), snapshot, extraSnapshots: [] }).data.emails;
    const want = new Set(l.emails.map((e) => e.toLowerCase()));
    counts.wanted += want.size;
    counts.found += got.filter((e) => want.has(e)).length;
    counts.others += got.filter((e) => !want.has(e)).length;
  }
  return counts;
}

describe('emails of the blind probe pages', () => {
  // email-1 (held out): every organisation address found, and at most the 27 other strings taken now
  // (precision 75.9 %: mostly other organisations' desks the text names, services/company/README.md).
  // email-2 (held out): contact, team, press and council pages as real sites write them; 95 of 96
  // found, the others all other organisations' addresses the prose names (services/company/README.md).
  it.each([
    ['email-1', 85, 85, 27],
    ['email-2', 96, 95, 51],
  ] as const)('%s: of its %i addresses at least %i found, at most %i others', (set, wanted, found, others) => {
    const c = emailCounts(set);
    expect(c.wanted).toBe(wanted);
    expect(c.found).toBeGreaterThanOrEqual(found);
    expect(c.others).toBeLessThanOrEqual(others);
  });
});

interface AddressProbeLabel {
  file: string;
  host: string;
  path?: string;
  addresses: string[];
  not_addresses: string[];
}

/** What the company analyzer finds of a set's addresses: labelled ones found, others, traps taken. */
function addressCounts(set: string) {
  const rows = labels<AddressProbeLabel>(set);
  const counts = { pages: rows.length, wanted: 0, found: 0, others: 0, traps: 0 };
  for (const l of rows) {
    const { snapshot } = page(set, l);
    const got = analyzeCompany({ requestId: randomUUID(), snapshot, extraSnapshots: [] }).data.addresses;
    counts.wanted += l.addresses.length;
    counts.found += l.addresses.filter((e) => got.some((a) => addressMatches(a, e))).length;
    counts.others += got.filter((a) => !l.addresses.some((e) => addressMatches(a, e))).length;
    counts.traps += got.filter((a) => l.not_addresses.some((e) => addressMatches(a, e))).length;
  }
  return counts;
}

describe('addresses of the blind probe pages', () => {
  // address-1 (held out at recall 46 of 62, precision 48 of 65, 9 trap addresses taken): every
  // format of 14 countries, branches, boxes, and other organisations' addresses in the prose.
  // address-2 (held out at recall 55 of 65, precision 57 of 86, 27 trap addresses taken): 25 countries,
  // Quebec, Brazil and Hong Kong among them; other organisations named right before their address.
  // address-3 (held out at recall 56 of 61, 18 others, 16 traps): English-speaking countries' formats,
  // agency credits, landlords, franchisors, regulators, registered agents, venues, a former office.
  it.each([
    ['address-1', 62, 60, 4, 3],
    ['address-2', 65, 60, 7, 5],
    ['address-3', 61, 58, 4, 3],
  ] as const)('%s: of its %i addresses at least %i found, at most %i others, at most %i traps', (set, wanted, found, others, traps) => {
    const c = addressCounts(set);
    expect(c.pages).toBe(30);
    expect(c.wanted).toBe(wanted);
    expect(c.found).toBeGreaterThanOrEqual(found);
    expect(c.others).toBeLessThanOrEqual(others);
    expect(c.traps).toBeLessThanOrEqual(traps);
  });
});

interface LogoProbeLabel {
  file: string;
  host: string;
  logo_urls: string[];
  placement: string;
}

describe('logos of the blind probe pages', () => {
  // Every placement of logo-1 (header images, picture/srcset, lazy data-src, inline and sprite SVG,
  // CSS backgrounds, JSON-LD, microdata, og:logo, icon links) yields one of the page's own logo URLs.
  it.each(labels<LogoProbeLabel>('logo-1').map((l) => [l.file, l] as const))('logo-1 %s', async (_file, l) => {
    const { snapshot } = page('logo-1', l);
    const out = await analyzeBrand({
      requestId: '00000000-0000-4000-8000-000000000000',
      snapshot,
      screenshotUrl: '',
      options: { screenshotColors: null, css: true, html: false, javascript: false },
    });
    expect(knownLogoFound({ page_id: l.file, logos: l.logo_urls, how: '' }, out.logos), l.placement).toBe(true);
  });
});
