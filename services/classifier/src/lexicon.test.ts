import { describe, expect, it } from 'vitest';
import { buildLexicon, indexNgrams, lexiconScore, normalizeToken, scoreAllCategories, indexPage } from './lexicon.ts';
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

describe('keyword evidence', () => {
  it('folds plurals so "Dentists" meets "dentist"', () => {
    expect(normalizeToken('Dentists')).toBe('dentist');
    expect(normalizeToken('bakeries')).toBe('bakery');
    expect(normalizeToken('business')).toBe('business');
    expect(indexNgrams('Custom Homes for sale, custom homes!').get('custom home')).toBe(2);
  });

  it('scores the title above the same word in the body, and counts repeated words with diminishing returns', () => {
    const lex = buildLexicon();
    const dental = lex.keywordsOf('IAB7-17');
    const inTitle = lexiconScore(indexPage(page({ title: 'Family Dentist in Leeds' })), dental);
    const inBody = lexiconScore(indexPage(page({ visible: 'Our family dentist in Leeds.' })), dental);
    const tenTimes = lexiconScore(indexPage(page({ visible: 'dentist '.repeat(10) })), dental);
    expect(inTitle).toBeGreaterThan(inBody);
    expect(tenTimes).toBeLessThan(inBody * 10);
  });

  it('finds a trade run together in the host name', () => {
    const lex = buildLexicon();
    const scores = scoreAllCategories(indexPage(page({ host: 'misterplumber.ca' })), lex);
    expect(scores.get('IAB10-5')).toBeGreaterThan(0);
    expect(scores.get('IAB8-9')).toBe(0);
  });

  it('gives categories without hand-written words the words of their official name', () => {
    expect(
      buildLexicon()
        .keywordsOf('IAB17-39')
        .map((k) => k.gram),
    ).toEqual(['table tennis', 'ping pong']);
    expect(buildLexicon().keywordsOf('IAB19-29')).toEqual([]); // "Entertainment" alone is too vague
  });

  it('does not fold words that are no plural into another word ("news" is not "new")', () => {
    expect(normalizeToken('news')).toBe('news');
    expect(normalizeToken('series')).toBe('series');
    const news = scoreAllCategories(indexPage(page({ title: 'New arrivals and new prices' })), buildLexicon());
    expect(news.get('IAB12')).toBe(0);
  });

  it('takes no evidence from navigation words of official names ("Home") nor one-letter grams ("C++")', () => {
    const scores = scoreAllCategories(indexPage(page({ title: 'Home', nav: ['Home', 'About', 'Contact'], visible: 'Section C. Plan B.' })), buildLexicon());
    expect(scores.get('IAB10')).toBe(0);
    expect(scores.get('IAB19-4')).toBe(0);
    expect(
      buildLexicon()
        .keywordsOf('IAB10')
        .map((k) => k.gram),
    ).toContain('garden');
  });
});
