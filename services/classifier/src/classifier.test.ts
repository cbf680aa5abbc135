import { beforeAll, describe, expect, it } from 'vitest';
import { ClassificationSchema } from '@enrich/shared/contracts';
import { createClassifier, type Classifier } from './classifier.ts';
import { loadSentenceEncoder } from './embed.ts';
import { createEmbeddedClassifier } from './providers/embedded.ts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';

const html = (head: string, body: string, lang = 'en'): string => `<!doctype html><html lang="${lang}"><head>${head}</head><body>${body}</body></html>`;
const run = (c: Classifier, page: string, url = 'https://site.example/') => c.classify(snapshotFromHtml(page, url), url);

describe('classifier on keywords and schema.org types', () => {
  const classifier = createClassifier({ embedded: createEmbeddedClassifier(null) });

  it('names the tier-2 among the chosen family when the page supports one', async () => {
    const got = await run(classifier, html(
      '<title>Bright Smile Dental | Family Dentist in Leeds</title><meta name="description" content="Family dentistry, orthodontics and teeth whitening in Leeds.">',
      '<h1>Your local dentist</h1><nav><a href="/implants">Dental implants</a><a href="/braces">Braces</a></nav><p>Book a check-up with our dentists and hygienists.</p>',
    ));
    expect(got).toMatchObject({ iab_id: 'IAB7-17', iab_parent_id: 'IAB7', category: 'Health & Fitness', subcategory: 'Dental Care' });
    expect(got.description).toBe('Family dentistry, orthodontics and teeth whitening in Leeds.');
  });

  it('lets a declared schema.org type decide when the prose is thin', async () => {
    const got = await run(classifier, html(
      '<title>Chez Marie</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Restaurant","name":"Chez Marie"}</script>',
      '<h1>Chez Marie</h1><p>Open Tuesday to Sunday.</p>',
    ));
    expect(got).toMatchObject({ iab_id: 'IAB8-9', iab_parent_id: 'IAB8', subcategory: 'Dining Out' });
    const app = await run(classifier, html('<title>Tally</title><script type="application/ld+json">{"@type":"SoftwareApplication","name":"Tally"}</script>', '<p>Get started.</p>'));
    expect(app).toMatchObject({ iab_id: 'IAB19', iab_parent_id: 'IAB19', category: 'Technology & Computing', subcategory: '' });
  });

  it('answers IAB24 Uncategorized for a near-empty page, with an honest description', async () => {
    const got = await run(classifier, html('<title>Welcome</title>', '<div id="app"></div>'), 'https://qzx.example/');
    expect(got).toMatchObject({ iab_id: 'IAB24', iab_parent_id: 'IAB24', category: 'Uncategorized', subcategory: '' });
    expect(got.description).toBe('qzx.example is a website whose pages say too little about it to tell what it offers.');
  });

  it('answers IAB24 for a page in a language it cannot read, rather than a random category', async () => {
    const got = await run(classifier, html(
      '<title>Kotisivu</title><meta name="description" content="Tervetuloa sivuillemme. Lue lisää toiminnastamme ja ota yhteyttä.">',
      '<h1>Tervetuloa</h1><p>Olemme pieni perheyritys Tampereella. Ota yhteyttä, niin kerromme lisää.</p>', 'fi',
    ));
    expect(got.iab_id).toBe('IAB24');
    expect(got.description).toBe('Tervetuloa sivuillemme. Lue lisää toiminnastamme ja ota yhteyttä.');
  });

  it('still classifies a foreign-language page whose words or types are unambiguous', async () => {
    const got = await run(classifier, html(
      '<title>Hotel Adler – Zimmer & Suiten</title><script type="application/ld+json">{"@type":"Hotel","name":"Hotel Adler"}</script>',
      '<h1>Willkommen im Hotel Adler</h1><p>Unsere Zimmer und Suiten mit Blick auf die Berge.</p>', 'de',
    ));
    expect(got).toMatchObject({ iab_id: 'IAB20-18', iab_parent_id: 'IAB20' });
  });

  it('recognises a site under construction', async () => {
    const got = await run(classifier, html('<title>acme-widgets.com</title>', '<h1>Website coming soon</h1><p>This site is under construction.</p>'));
    expect(got).toMatchObject({ iab_id: 'IAB25-6', iab_parent_id: 'IAB25', subcategory: 'Under Construction' });
  });

  it('always returns a reply the contract accepts', async () => {
    const got = await run(classifier, html('', ''));
    expect(() => ClassificationSchema.parse(got)).not.toThrow();
    expect(got.description.length).toBeGreaterThan(0);
  });
});

describe('classifier with the sentence encoder', () => {
  let classifier: Classifier;
  beforeAll(async () => {
    classifier = createClassifier({ embedded: createEmbeddedClassifier(await loadSentenceEncoder()) });
  });

  it('classifies a page whose words are not in the lexicon by meaning', async () => {
    const got = await run(classifier, html(
      '<title>Trailhead Outfitters</title><meta name="description" content="Backpacks, tents, sleeping bags and trekking poles for your next backcountry trip.">',
      '<h1>Gear up for the backcountry</h1><nav><a>Backpacks</a><a>Tents</a><a>Sleeping bags</a><a>Trekking poles</a></nav>',
    ));
    expect(['IAB17', 'IAB20']).toContain(got.iab_parent_id);
  });

  it('keeps the keyword answer where the evidence is plain', async () => {
    const got = await run(classifier, html(
      '<title>Harbor View Hotel | Rooms & Suites in Portland</title><meta name="description" content="A boutique hotel on the waterfront with 40 rooms and suites.">',
      '<h1>Stay with us</h1><nav><a>Rooms</a><a>Suites</a><a>Book now</a></nav>',
    ));
    expect(got).toMatchObject({ iab_id: 'IAB20-18', iab_parent_id: 'IAB20', category: 'Travel', subcategory: 'Hotels' });
  });
});
