import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addressMatches,
  companyNameMatches,
  emailMatches,
  legalNameMatches,
  loadEmailLabels,
  scoreCompany,
  withEmailLabels,
  withStatedLegalNames,
} from './score-company.ts';

const data = (over: Partial<{ name: string; brand_name: string; emails: string[]; addresses: string[] }>) => ({
  name: '',
  brand_name: '',
  emails: [],
  addresses: [],
  sources: [],
  confidence: 0,
  pages: [],
  ...over,
});

describe('company scoring', () => {
  it('compares names without legal form, "the", ".com" or "&" spelling', () => {
    expect(companyNameMatches('Leeward Productions, Inc.', 'Leeward Productions')).toBe(true);
    expect(companyNameMatches('Wall Decor and Home Accents', 'Wall Decor & Home Accents')).toBe(true);
    expect(companyNameMatches('Camera Superstore', 'Camera Superstore.com')).toBe(true);
    expect(companyNameMatches('Bank of America Corporation', 'Bank of America')).toBe(true);
    expect(companyNameMatches('Taylor Morrison, Inc.', 'Darling Homes')).toBe(false);
    expect(companyNameMatches('', 'Darling Homes')).toBe(false);
    // Names in other scripts compare too (they folded to nothing, and nothing matched nothing).
    expect(companyNameMatches('株式会社みどり木工', '株式会社みどり木工')).toBe(true);
    expect(companyNameMatches('株式会社みどり木工', '株式会社あおば建設')).toBe(false);
    expect(legalNameMatches('Κάπα Ένα Α.Ε.', 'Κάπα Ένα Α.Ε.')).toBe(true);
  });

  it('matches emails against written-out annotations', () => {
    expect(emailMatches('mayoinfo@mayoclinic.com', 'mayoinfoatmayoclinicdotcom')).toBe(true);
    expect(emailMatches('Info@Acme.com', 'info@acme.com')).toBe(true);
    expect(emailMatches('sales@acme.com', 'info@acme.com')).toBe(false);
  });

  it('matches addresses across lost spaces and abbreviations, not different ones', () => {
    expect(addressMatches('4801 N. Butler Ave, Suite 12101, Farmington, NM 87401', '4801 N. Butler AveSuite 12101, Farmington, NM 87401')).toBe(true);
    expect(addressMatches('8765 Cariboo Pl, Burnaby, B.C., V3N 4T2', '8765 Cariboo Place, Burnaby, British Columbia V3N 4T2')).toBe(false);
    expect(addressMatches('8765 Cariboo Pl, Burnaby, BC V3N 4T2', '8765 Cariboo Place, Burnaby, BC V3N 4T2')).toBe(true);
    expect(addressMatches('1350 Post Road, Warwick, RI 02888', '1385 Riverdale Street, West Springfield, MA 01089')).toBe(false);
    expect(addressMatches('1385 Riverdale Street West Springfield, MA 01089', '1399 Riverdale Street, West Springfield, MA 01089')).toBe(false);
  });

  it('counts tp/fp/fn per field', () => {
    const s = scoreCompany(
      {
        company_name: 'Acme Widgets',
        legal_names: ['Acme Widgets, Inc.', 'Acme Widgets Inc'],
        emails: ['info@acme.com', 'sales@acme.com'],
        emails_annotated: true,
        addresses: [{ full: '1 Main St, Springfield, IL 62701' }, { full: '1 Main Street, Springfield, IL 62701' }],
        contact_annotated: true,
      },
      data({
        name: 'Acme Widgets Inc.',
        emails: ['info@acme.com', 'jobs@acme.com'],
        addresses: ['1 Main Street, Springfield, IL 62701', 'PO Box 9, Springfield, IL 62702'],
      }),
    );
    expect(s.name?.correct).toBe(true);
    expect(s.legalNames).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    expect(s.emails).toMatchObject({ tp: 1, fp: 1, fn: 1 });
    expect(s.addresses).toMatchObject({ tp: 1, fp: 1, fn: 0 });
  });

  it('counts a legal name the hand labels say the page states as right in the labelled precision only', () => {
    const truth = { company_name: 'Acme', legal_names: [], stated_legal_names: ['Acme Widgets Ltd'] };
    const s = scoreCompany(truth, data({ name: 'Acme Widgets Limited' }));
    expect(s.legalNames).toMatchObject({ tp: 0, fp: 1, fn: 0 });
    expect(s.legalNamesWithLabels).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    expect(scoreCompany(truth, data({ name: 'Other Holdings Ltd' })).legalNamesWithLabels).toMatchObject({ tp: 0, fp: 1, fn: 1 });
  });

  it('does not score emails where they were not annotated', () => {
    expect(scoreCompany({ emails: null, emails_annotated: false }, data({ emails: ['a@b.com'] })).emails).toBeUndefined();
  });

  it('scores the legal name where the page states one, across spellings of the legal form', () => {
    expect(legalNameMatches('Telegraph Media Group Ltd', 'Telegraph Media Group Limited')).toBe(true);
    expect(legalNameMatches('Wikimedia Foundation Inc', 'Wikimedia Foundation, Inc.')).toBe(true);
    expect(legalNameMatches('Condé Nast', 'Condé Nast')).toBe(true);
    expect(legalNameMatches('Guardian', 'Guardian News & Media Limited')).toBe(false);
    expect(legalNameMatches('Acme Widgets', 'Acme Widgets, Inc.')).toBe(false);
    const s = scoreCompany(
      { company_name: 'Darling Homes', legal_names: [], stated_legal_names: ['Taylor Morrison, Inc.'] },
      data({ name: 'Taylor Morrison, Inc.', brand_name: 'Darling Homes' }),
    );
    expect(s.statedLegal?.correct).toBe(true);
    expect(s.name?.correct).toBe(true);
    expect(s.brand?.correct).toBe(true);
    expect(scoreCompany({ company_name: 'Darling Homes', legal_names: [] }, data({ name: 'Darling Homes' })).statedLegal).toBeUndefined();
  });
});

describe('email labels (mailto targets the corpus annotation omits)', () => {
  it('adds the labelled addresses to annotated truth only, so a found mailto target is no false positive', () => {
    const truth = { emails_annotated: true, emails: ['info@acme.example'] };
    const found = { emails: ['info@acme.example', 'sales@acme.example'] } as Parameters<typeof scoreCompany>[1];
    expect(scoreCompany(truth, found).emails).toMatchObject({ tp: 1, fp: 1 });
    expect(scoreCompany(withEmailLabels(truth, ['sales@acme.example']), found).emails).toMatchObject({ tp: 2, fp: 0, fn: 0 });
    expect(withEmailLabels({ emails_annotated: false, emails: null }, ['sales@acme.example']).emails).toBeNull();
  });
  it('does not add an address the annotation already has written out: one address found once is no miss', () => {
    const truth = { emails_annotated: true, emails: ['infoatacmedotexample'] };
    const labelled = withEmailLabels(truth, ['info@acme.example', 'sales@acme.example']);
    expect(labelled.emails).toEqual(['infoatacmedotexample', 'sales@acme.example']);
    const found = { emails: ['info@acme.example', 'sales@acme.example'] } as Parameters<typeof scoreCompany>[1];
    expect(scoreCompany(labelled, found).emails).toMatchObject({ tp: 2, fp: 0, fn: 0 });
  });

  it('loads one list of addresses per page from labels/emails.jsonl', () => {
    const labels = loadEmailLabels('rendered');
    const markup = loadEmailLabels('markup');
    for (const [page, emails] of markup) expect(labels.get(page)).toEqual(expect.arrayContaining(emails));
    expect(labels.size).toBeGreaterThan(0);
    for (const emails of labels.values()) for (const e of emails) expect(e).toMatch(/^[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}$/);
  });
});

describe('stated legal names (hand labels, shared by the offline and the HTTP eval)', () => {
  it("gives a page its own label, a same-site page's label where its text names it too, and nothing else", () => {
    const dir = mkdtempSync(join(tmpdir(), 'stated-'));
    mkdirSync(join(dir, 'pages'));
    const page = (id: string, html: string) => {
      writeFileSync(join(dir, 'pages', `${id}.html`), html);
      return { page_id: id, domain: 'acme.com', html: `pages/${id}.html`, gt: {} };
    };
    const labels = join(dir, 'labels.jsonl');
    writeFileSync(labels, `${JSON.stringify({ page_id: 'a', legal_name: 'Acme Widgets Ltd', how: 'footer' })}\n`);
    const records = [page('a', '<p>© Acme Widgets Ltd</p>'), page('b', '<p>Acme Widgets &amp; <b>Acme Widgets Ltd</b></p>'), page('c', '<p>Acme</p>')];
    const out = withStatedLegalNames(records, dir, (r) => r.domain, labels);
    expect(out.map((r) => (r.gt as { stated_legal_names?: string[] }).stated_legal_names)).toEqual([['Acme Widgets Ltd'], ['Acme Widgets Ltd'], undefined]);
  });
});
