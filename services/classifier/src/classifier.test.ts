import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassificationSchema } from '@enrich/shared/contracts';
import { startTestTelemetry, trace } from '@enrich/shared/telemetry';
import { createClassifier, type Classifier } from './classifier.ts';
import { loadSentenceEncoder } from './embed.ts';
import { createEmbeddedClassifier } from './providers/embedded.ts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';

const html = (head: string, body: string, lang = 'en'): string => `<!doctype html><html lang="${lang}"><head>${head}</head><body>${body}</body></html>`;
const run = (c: Classifier, page: string, url = 'https://site.example/') => c.classify(snapshotFromHtml(page, url), url);

describe('classifier on keywords and schema.org types', () => {
  const classifier = createClassifier({ embedded: createEmbeddedClassifier(null) });

  it('names the tier-2 among the chosen family when the page supports one', async () => {
    const got = await run(
      classifier,
      html(
        '<title>Bright Smile Dental | Family Dentist in Leeds</title><meta name="description" content="Family dentistry, orthodontics and teeth whitening in Leeds.">',
        '<h1>Your local dentist</h1><nav><a href="/implants">Dental implants</a><a href="/braces">Braces</a></nav><p>Book a check-up with our dentists and hygienists.</p>',
      ),
    );
    expect(got).toMatchObject({ iab_id: 'IAB7-17', iab_parent_id: 'IAB7', category: 'Health & Fitness', subcategory: 'Dental Care' });
    expect(got.description).toBe('Family dentistry, orthodontics and teeth whitening in Leeds.');
  });

  it('lets a declared schema.org type decide when the prose is thin', async () => {
    const got = await run(
      classifier,
      html(
        '<title>Chez Marie</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Restaurant","name":"Chez Marie"}</script>',
        '<h1>Chez Marie</h1><p>Open Tuesday to Sunday.</p>',
      ),
    );
    expect(got).toMatchObject({ iab_id: 'IAB8-9', iab_parent_id: 'IAB8', subcategory: 'Dining Out' });
    const app = await run(
      classifier,
      html('<title>Tally</title><script type="application/ld+json">{"@type":"SoftwareApplication","name":"Tally"}</script>', '<p>Get started.</p>'),
    );
    expect(app).toMatchObject({ iab_id: 'IAB19', iab_parent_id: 'IAB19', category: 'Technology & Computing', subcategory: '' });
  });

  it('answers IAB24 Uncategorized for a near-empty page, with an honest description', async () => {
    const got = await run(classifier, html('<title>Welcome</title>', '<div id="app"></div>'), 'https://qzx.example/');
    expect(got).toMatchObject({ iab_id: 'IAB24', iab_parent_id: 'IAB24', category: 'Uncategorized', subcategory: '' });
    expect(got.description).toBe('qzx.example is a website whose pages say too little about it to tell what it offers.');
  });

  it('answers IAB24 for a page in a language it cannot read, rather than a random category', async () => {
    const got = await run(
      classifier,
      html(
        '<title>Kotisivu</title><meta name="description" content="Tervetuloa sivuillemme. Lue lisää toiminnastamme ja ota yhteyttä.">',
        '<h1>Tervetuloa</h1><p>Olemme pieni perheyritys Tampereella. Ota yhteyttä, niin kerromme lisää.</p>',
        'fi',
      ),
    );
    expect(got.iab_id).toBe('IAB24');
    expect(got.description).toBe('Tervetuloa sivuillemme. Lue lisää toiminnastamme ja ota yhteyttä.');
  });

  it('still classifies a foreign-language page whose words or types are unambiguous', async () => {
    const got = await run(
      classifier,
      html(
        '<title>Hotel Adler – Zimmer & Suiten</title><script type="application/ld+json">{"@type":"Hotel","name":"Hotel Adler"}</script>',
        '<h1>Willkommen im Hotel Adler</h1><p>Unsere Zimmer und Suiten mit Blick auf die Berge.</p>',
        'de',
      ),
    );
    expect(got).toMatchObject({ iab_id: 'IAB20-18', iab_parent_id: 'IAB20' });
  });

  it('recognises a site under construction', async () => {
    const got = await run(classifier, html('<title>acme-widgets.com</title>', '<h1>Website coming soon</h1><p>This site is under construction.</p>'));
    expect(got).toMatchObject({ iab_id: 'IAB25-6', iab_parent_id: 'IAB25', subcategory: 'Under Construction' });
  });

  it("gives an article page the article's topic, not the publisher's trade", async () => {
    const body = Array.from(
      { length: 12 },
      () => 'Gardening in spring starts with the soil: feed the garden with compost, sow seeds of roses and plants, and water the flowers in the morning.',
    ).join(' ');
    const page = html(
      `<title>Spring in the garden | Acme Software Blog</title><meta property="og:type" content="article"><meta property="og:site_name" content="Acme Software">
       <script type="application/ld+json">{"@type":"SoftwareApplication","name":"Acme CRM","description":"Acme CRM is business software for sales teams."}</script>`,
      `<nav><a>Software</a><a>CRM</a><a>Pricing</a><a>Technology</a><a>Computers</a></nav>
       <article><h1>Spring in the garden</h1><time datetime="2024-04-01">1 April 2024</time><p>${body}</p></article>
       <footer>Acme Software makes CRM software and IT solutions for technology companies.</footer>`,
    );
    const got = await run(classifier, page, 'https://acmesoftware.example/blog/spring');
    expect(got.iab_parent_id).toBe('IAB10');
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
    const got = await run(
      classifier,
      html(
        '<title>Trailhead Outfitters</title><meta name="description" content="Backpacks, tents, sleeping bags and trekking poles for your next backcountry trip.">',
        '<h1>Gear up for the backcountry</h1><nav><a>Backpacks</a><a>Tents</a><a>Sleeping bags</a><a>Trekking poles</a></nav>',
      ),
    );
    expect(['IAB17', 'IAB20']).toContain(got.iab_parent_id);
  });

  it('keeps the keyword answer where the evidence is plain', async () => {
    const got = await run(
      classifier,
      html(
        '<title>Harbor View Hotel | Rooms & Suites in Portland</title><meta name="description" content="A boutique hotel on the waterfront with 40 rooms and suites.">',
        '<h1>Stay with us</h1><nav><a>Rooms</a><a>Suites</a><a>Book now</a></nav>',
      ),
    );
    expect(got).toMatchObject({ iab_id: 'IAB20-18', iab_parent_id: 'IAB20', category: 'Travel', subcategory: 'Hotels' });
  });
});

describe('classifier degrading gracefully, with the evidence in the trace', () => {
  let classifier: Classifier;
  const telemetry = startTestTelemetry('classifier-test');
  beforeAll(async () => {
    classifier = createClassifier({ embedded: createEmbeddedClassifier(await loadSentenceEncoder()) });
  });
  afterAll(() => telemetry.shutdown());

  const rocketPage = html(
    '<title>Ursa Major</title>',
    `<h1>Ursa Major</h1><p>We design and build liquid rocket engines for hypersonic flight and orbital launch.
     Our staged combustion engines are printed in copper alloys and tested on our own stands in Colorado.
     Each engine is fired hundreds of times before it ships, so our customers can fly sooner and more often.</p>`,
  );

  it('gives a few sentences of prose the lexicon has no words for its nearest category, not IAB24', async () => {
    const got = await run(classifier, rocketPage, 'https://ursamajor.example/');
    expect(got.iab_id).not.toBe('IAB24');
    expect(['IAB15', 'IAB19']).toContain(got.iab_parent_id); // Science (IAB15) today
  });

  it('keeps IAB24 for a page with too little text to judge, model or not', async () => {
    const got = await run(classifier, html('<title>Hello</title>', '<h1>Welcome</h1><p>Click here to enter.</p>'), 'https://qzx.example/');
    expect(got.iab_id).toBe('IAB24');
  });

  it('puts the basis, the deciding evidence, score and margin on the active span', async () => {
    telemetry.exporter.reset();
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('classify', async (span) => {
      await run(classifier, rocketPage, 'https://ursamajor.example/');
      span.end();
    });
    const attrs = telemetry.exporter.getFinishedSpans().find((s) => s.name === 'classify')!.attributes;
    expect(attrs['enrich.classify.basis']).toBe('nearest');
    expect(attrs['enrich.classify.decided_by']).toBe('embedding');
    expect(typeof attrs['enrich.classify.score']).toBe('number');
    expect(attrs['enrich.classify.margin']).toBeGreaterThanOrEqual(0);
    expect(attrs['enrich.classify.prose_sentences']).toBeGreaterThanOrEqual(2);
    expect(attrs['enrich.classify.article']).toBe(false);
    expect(attrs['enrich.classify.embedding']).toBe('used');
  });

  it('does not embed a page its keywords decide (the same answer as with the embedding), unless the full ranking is asked for', async () => {
    const encoder = await loadSentenceEncoder();
    let calls = 0;
    const counting = { ...encoder, embed: (texts: readonly string[]) => (calls++, encoder.embed(texts)) };
    const plain = html(
      '<title>Tony’s Pizzeria | Italian restaurant</title><meta name="description" content="Family Italian restaurant: wood-fired pizza, fresh pasta and Italian wine since 1982.">',
      '<h1>Italian restaurant and pizzeria</h1><p>Our Italian restaurant serves pizza, pasta, lasagna and Italian wine. Book a table at the restaurant. Pizza delivery every night.</p>',
    );
    telemetry.exporter.reset();
    const skipped = await trace.getTracer('test').startActiveSpan('classify', async (span) => {
      const got = await run(createClassifier({ embedded: createEmbeddedClassifier(counting) }), plain);
      span.end();
      return got;
    });
    expect(calls).toBe(0);
    expect(telemetry.exporter.getFinishedSpans().find((s) => s.name === 'classify')!.attributes['enrich.classify.embedding']).toBe('not needed');
    const full = await run(createClassifier({ embedded: createEmbeddedClassifier(counting, undefined, undefined, { fullRanking: true }) }), plain);
    expect(calls).toBe(1);
    expect(full).toEqual(skipped);
    await run(createClassifier({ embedded: createEmbeddedClassifier(counting) }), rocketPage, 'https://ursamajor.example/');
    expect(calls).toBe(2);
  });

  it('gives the same page the same answer however its navigation and JSON-LD blocks are ordered', async () => {
    const nav = ['Rooms', 'Suites', 'Dining', 'Spa', 'Weddings', 'Book now'];
    const ld = ['{"@type":"Hotel","name":"Harbor"}', '{"@type":"Restaurant","name":"Harbor Grill"}'];
    const make = (n: string[], l: string[]) =>
      html(
        `<title>Harbor</title>${l.map((j) => `<script type="application/ld+json">${j}</script>`).join('')}`,
        `<nav>${n.map((a) => `<a>${a}</a>`).join('')}</nav><p>Harbor on the bay.</p>`,
      );
    const a = await run(classifier, make(nav, ld));
    const b = await run(classifier, make([...nav].reverse(), [...ld].reverse()));
    const c = await run(classifier, make(nav, ld));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });
});
