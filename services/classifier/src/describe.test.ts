import { describe, expect, it } from 'vitest';
import { describeSite, fitDescription, siteNameOf, splitSentences } from './describe.ts';
import type { PageEvidence } from './page-evidence.ts';

const page = (over: Partial<PageEvidence>): PageEvidence => ({
  url: 'https://example.com/',
  host: 'example.com',
  lang: 'en',
  title: '',
  descriptions: [],
  siteName: null,
  keywords: [],
  h1: [],
  subheadings: [],
  nav: [],
  visible: '',
  schemaTypes: [],
  ogType: null,
  article: null,
  ...over,
});
const cat = { category: 'Food & Drink', subcategory: 'Dining Out', lowEvidence: false };

describe('describeSite', () => {
  it('uses the meta description, decoded and without markup', () => {
    const d = describeSite(
      page({ title: 'Lupa', descriptions: ['<p>Lupa is a Roman trattoria in Greenwich Village serving pasta &amp;amp; wine since 1999.</p>'] }),
      cat,
    );
    expect(d).toBe('Lupa is a Roman trattoria in Greenwich Village serving pasta & wine since 1999.');
  });

  it('keeps at most two sentences and 300 characters', () => {
    const long = 'We build boats. We sail them across the Atlantic every summer. We also repair engines and rigging for neighbours.';
    expect(describeSite(page({ descriptions: [long] }), cat)).toBe('We build boats. We sail them across the Atlantic every summer.');
    const run = `Acme offers ${'very '.repeat(100)}good anvils to coyotes.`;
    const d = describeSite(page({ descriptions: [run] }), cat);
    expect(d.length).toBeLessThanOrEqual(300);
    expect(d.endsWith('…')).toBe(true);
    expect(d).not.toMatch(/ …$/);
  });

  it('does not repeat the title as the description', () => {
    const d = describeSite(
      page({
        title: 'Smith & Sons Plumbing - Emergency Plumbers in Leeds',
        descriptions: ['Smith & Sons Plumbing - Emergency Plumbers in Leeds'],
        visible: 'Home. Smith & Sons is a family-owned plumbing company serving Leeds since 1982. Call now.',
      }),
      cat,
    );
    expect(d).toBe('Smith & Sons is a family-owned plumbing company serving Leeds since 1982.');
  });

  it("skips boilerplate sentences and takes the page's own sentence about itself", () => {
    const d = describeSite(
      page({
        descriptions: ['This site uses cookies to improve your experience.'],
        visible: 'Menu. Please enable JavaScript. Blue Fin Sushi offers fresh sushi and sashimi in downtown Austin. Reservations.',
      }),
      cat,
    );
    expect(d).toBe('Blue Fin Sushi offers fresh sushi and sashimi in downtown Austin.');
  });

  it('never opens a sentence with the menu labels, headings or buttons above it (each ends its line)', () => {
    const visible =
      'HomeExperiencesFlying DisplaysMeet the BirdsFind Us\nWelcome to Highmoor\nUp on the edge of the North York Moors we keep and fly\nover forty birds of prey.\nBook now';
    const flat = visible.replace(/\n/g, ' ');
    expect(describeSite(page({ visible: flat, visibleLines: visible }), cat)).toBe(
      'Up on the edge of the North York Moors we keep and fly over forty birds of prey.',
    );
    // Without its lines the text reads as one sentence that opens with the menu.
    expect(describeSite(page({ visible: flat }), cat)).toMatch(/^HomeExperiences/);
  });

  it('falls back to an honest sentence from the site name and category, never empty', () => {
    expect(describeSite(page({ title: 'Home | Joe’s Diner' }), cat)).toBe('Joe’s Diner is a website about Dining Out.');
    expect(describeSite(page({ host: 'blank.example' }), { category: 'Uncategorized', subcategory: '', lowEvidence: true })).toBe(
      'blank.example is a website whose pages say too little about it to tell what it offers.',
    );
  });
});

describe('sentence helpers', () => {
  it('does not split at abbreviations', () => {
    expect(splitSentences('Visit St. Louis today. Dr. Smith is in.')).toEqual(['Visit St. Louis today.', 'Dr. Smith is in.']);
  });
  it('fits one sentence unchanged', () => {
    expect(fitDescription('One sentence only.')).toBe('One sentence only.');
  });
  it('names the site from og:site_name, else the brand part of the title', () => {
    expect(siteNameOf(page({ siteName: 'Acme', title: 'Anvils | Acme' }))).toBe('Acme');
    expect(siteNameOf(page({ title: 'Anvils and more | Acme Corp' }))).toBe('Acme Corp');
  });
});

describe('description candidates that are not prose', () => {
  it('skips a menu dump and a contact block for a real sentence', () => {
    const d = describeSite(
      page({
        descriptions: [
          'Follow us on Facebook About Us Office Locations Estate Planning Living Wills Powers of Attorney Contact Us Call Us Today!',
          '_ Groceries USA Long Island City, New York 11101 USA Tel: +1 (212) 673-5000',
        ],
        visible: 'Callinan Law is a family law firm that helps older clients plan their estates and care.',
      }),
      cat,
    );
    expect(d).toBe('Callinan Law is a family law firm that helps older clients plan their estates and care.');
  });
  it('names the site without the page part of the title', () => {
    expect(siteNameOf(page({ title: 'Enjoy Hair Care » Contact Us' }))).toBe('Enjoy Hair Care');
  });
});
