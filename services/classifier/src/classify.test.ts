import { describe, expect, it } from 'vitest';
import { byScoreThenTaxonomyOrder, chooseCategory, embeddingCannotChange, hasEnoughProse, measureProse, type ClassifierModel } from './classify.ts';
import { buildLexicon } from './lexicon.ts';
import type { PageEvidence } from './page-evidence.ts';
import { iabTaxonomy } from './taxonomy.ts';

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

describe('how much prose a page has', () => {
  it('counts sentences of six or more words that are mostly words', () => {
    const p = page({
      visible: 'We build liquid rocket engines for orbital launch. Each engine is fired on our stands before it ships. Call 555 0100 0199 9876 1234 5678.',
    });
    expect(measureProse(p)).toEqual({ sentences: 2, words: 18 });
    expect(hasEnoughProse(measureProse(p))).toBe(false);
    expect(hasEnoughProse({ sentences: 2, words: 20 })).toBe(true);
  });

  it('does not count menus, prices or short fragments as prose', () => {
    const p = page({ visible: 'Home | About | Contact\nLog in\n$19.99 $24.99 $5 $7 $8 $9\nClick here.' });
    expect(measureProse(p).sentences).toBe(0);
  });

  it('reads the article body instead of the whole page on an article', () => {
    const body = 'The lighthouse keeper wrote down every ship that passed in the night. ';
    const p = page({ visible: 'menu menu', article: { signal: 'schema.org', headline: 'Keeper', body: body.repeat(3), words: 36 } });
    expect(measureProse(p).sentences).toBe(3);
  });
});

describe('same evidence, same answer', () => {
  it('orders equal scores by taxonomy order, and ignores float noise below 1e-6', () => {
    const ranked = [
      { score: 2, order: 5 },
      { score: 2 + 1e-9, order: 3 },
      { score: 3, order: 9 },
    ].sort(byScoreThenTaxonomyOrder);
    expect(ranked.map((r) => r.order)).toEqual([9, 3, 5]);
  });

  it('breaks an exact tie between two families by taxonomy order, whatever order the words came in', () => {
    const tax = iabTaxonomy();
    const model: ClassifierModel = { taxonomy: tax, lexicon: buildLexicon(tax, { IAB8: 'zorblat', IAB20: 'quendil' }), vectors: null };
    const a = chooseCategory(page({ title: 'zorblat quendil' }), null, model);
    const b = chooseCategory(page({ title: 'quendil zorblat' }), null, model);
    expect(a.ranking[0]!.score).toBe(a.ranking[1]!.score);
    expect(a.tier1Id).toBe('IAB8');
    expect(b).toEqual(a);
  });
});

describe('the embedding is not computed where it cannot change the answer', () => {
  const tax = iabTaxonomy();
  const lexicon = buildLexicon(tax);
  /** Category vectors whose similarities put one category far above all others: the largest z-score an embedding can give it. */
  const oneHot = (id: string): ClassifierModel['vectors'] => {
    const ids = tax.all.map((c) => c.id);
    return {
      model: 'test',
      dims: 1,
      profilesSha256: '',
      ids,
      similarities: () => Float32Array.from(ids, (x) => (x === id ? 1 : 0)),
    };
  };
  const answers = (p: PageEvidence): Set<string> =>
    new Set(tax.all.map((c) => chooseCategory(p, new Float32Array(1), { taxonomy: tax, lexicon, vectors: oneHot(c.id) }).iabId));

  it('skips a page whose keywords decide: no embedding of any category changes its answer', () => {
    const p = page({
      title: 'Tony’s Pizzeria | Italian restaurant',
      descriptions: ['Family Italian restaurant: wood-fired pizza, fresh pasta and Italian wine since 1982.'],
      h1: ['Italian restaurant and pizzeria'],
      visible: 'Our Italian restaurant serves pizza, pasta, lasagna and Italian wine. Book a table at the restaurant. Pizza delivery every night.',
    });
    const model: ClassifierModel = { taxonomy: tax, lexicon, vectors: null };
    expect(embeddingCannotChange(p, model)).toBe(true);
    const without = chooseCategory(p, null, model).iabId;
    expect(answers(p)).toEqual(new Set([without]));
  });

  it('embeds a page whose keywords lead narrowly: there an embedding can change the answer', () => {
    const p = page({ title: 'Pizza and hotel rooms', visible: 'We have a restaurant and a hotel.' });
    const model: ClassifierModel = { taxonomy: tax, lexicon, vectors: null };
    expect(embeddingCannotChange(p, model)).toBe(false);
    expect(answers(p).size).toBeGreaterThan(1);
  });
});

describe('pages in another language than English', () => {
  const model: ClassifierModel = { taxonomy: iabTaxonomy(), lexicon: buildLexicon(), vectors: null };
  const german = page({
    lang: 'de',
    title: 'Fahrschule Brandt – Führerschein in Augsburg',
    h1: ['Ihre Fahrschule in Augsburg'],
    visible:
      'Wir bieten Fahrunterricht für alle Klassen. Der Theorieunterricht findet dreimal pro Woche statt. Melden Sie sich jetzt zum Fahrkurs an und machen Sie Ihren Führerschein bei uns.',
  });

  it("read by the names its language gives the trade (OpenStreetMap's presets): a German driving school is adult education", () => {
    expect(chooseCategory(german, null, model).iabId).toBe('IAB5-2');
  });

  it('reads a trade name inside a compound word of a language that writes compounds (German)', () => {
    const painter = page({
      lang: 'de',
      title: 'Malerbetrieb Huber – Meisterbetrieb seit 1987',
      h1: ['Ihr Malerbetrieb in Rosenheim'],
      visible:
        'Wir übernehmen Innenanstriche, Fassadenanstriche und Tapezierarbeiten für Wohnungen, Häuser und Büros. Unsere Malermeister beraten Sie gern vor Ort und erstellen Ihnen ein kostenloses Angebot.',
    });
    expect(chooseCategory(painter, null, model).iabId).toBe('IAB10-5');
    // The same page written as a title of plain words, with the trade only inside compounds.
    const compounds = { ...painter, title: 'Huber – Malermeisterbetrieb in Rosenheim', h1: ['Malermeisterbetrieb Huber'] };
    expect(chooseCategory(compounds, null, model).iabId).toBe('IAB10-5');
  });

  it('reads Norwegian written as "nb" with the names the presets give "no"', () => {
    const garage = page({
      lang: 'nb',
      title: 'Bilverksted i Drammen – service og EU-kontroll',
      h1: ['Bilverksted for alle bilmerker'],
      visible:
        'Vi utfører service, reparasjon og EU-kontroll på alle bilmerker. Verkstedet vårt har moderne utstyr, og mekanikerne våre har lang erfaring. Bestill time på nett eller ring oss.',
    });
    expect(chooseCategory(garage, null, model).tier1Id).toBe('IAB2');
  });

  it('not on an English page, nor on a page whose lang is English', () => {
    const english = { ...german, lang: 'en' };
    expect(chooseCategory(english, null, model).iabId).not.toBe('IAB5-2');
  });
});
