/**
 * Is this page an article, and if so what is its headline and body? An article page (a news story, a
 * blog post) is about its own topic, not about the publisher's trade: the classifier then weighs the
 * article's headline and body over the site's chrome (navigation, footer, the publisher's own
 * descriptions and schema.org types). See README, "Articles".
 *
 * An article is declared (schema.org Article / NewsArticle / BlogPosting / ..., or og:type article)
 * or shown (an `<article>` element with a heading), and in every case has a headline and a body of at
 * least MIN_ARTICLE_WORDS words. Unless declared by schema.org, it also carries a publication date
 * or an author byline (`<time>`, article:published_time, rel=author, a byline class), which business
 * pages that merely use an `<article>` element or a template's og:type lack. og:type article alone (many templates put it on every page) also
 * needs the body in an `<article>` element or JSON-LD articleBody; a declared schema.org article
 * falls back on the visible text without the header and footer.
 */
import type { Snapshot } from '@enrich/shared/contracts';
import { scanJsonLdStrings, toPlainText } from '@enrich/shared/page';

export interface ArticleEvidence {
  /** What said it is an article. */
  signal: 'schema.org' | 'og:type' | 'element';
  headline: string;
  /** The article's text, plain, cut at ARTICLE_TEXT_BUDGET. */
  body: string;
  words: number;
}

export const MIN_ARTICLE_WORDS = 150;
const ARTICLE_TEXT_BUDGET = 20_000;

/** schema.org types of an article (local names); all are Article or one of its subtypes. */
export const ARTICLE_TYPES = new Set([
  'Article',
  'NewsArticle',
  'BlogPosting',
  'LiveBlogPosting',
  'Report',
  'ScholarlyArticle',
  'TechArticle',
  'AnalysisNewsArticle',
  'OpinionNewsArticle',
  'ReportageNewsArticle',
  'ReviewNewsArticle',
  'BackgroundNewsArticle',
  'AdvertiserContentArticle',
  'SatiricalArticle',
]);

/** The inner HTML of every outermost `<article>` element (nested ones stay inside their parent), at most 50. */
export function articleElements(html: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (const m of html.matchAll(/<(\/?)article\b[^>]*>/gi)) {
    if (!m[1]) {
      if (depth === 0) start = m.index + m[0].length;
      depth++;
    } else if (depth > 0 && --depth === 0) {
      out.push(html.slice(start, m.index));
      if (out.length >= 50) break;
    }
  }
  return out;
}

/** Text of an article element without the parts that are not the article (scripts, share bars, asides). */
function elementText(inner: string): string {
  return toPlainText(inner.replace(/<(script|style|noscript|nav|footer|aside|form|svg|button|figure)\b[\s\S]*?<\/\1\s*>/gi, ' ')).slice(0, ARTICLE_TEXT_BUDGET);
}

function elementHeadline(inner: string): string {
  const m = /<(h1|h2)\b[^>]*>([\s\S]*?)<\/\1\s*>/i.exec(inner);
  return m ? toPlainText(m[2]!) : '';
}

/** The first `key` string of the JSON-LD blocks, plain; a scan, so broken blocks count too. */
function jsonLdString(blocks: readonly string[], key: 'headline' | 'articleBody'): string {
  const [value] = scanJsonLdStrings(blocks, key, { minLength: 3, maxLength: ARTICLE_TEXT_BUDGET, limit: 1 });
  return value === undefined ? '' : toPlainText(value);
}

/** A publication date or an author byline, as article templates mark them. */
const PUBLICATION_MARKS =
  /<time\b|"datePublished"|article:published_time|itemprop=["']?(?:datePublished|author)|rel=["']?author|class=["'][^"']*\b(?:byline|author|post-date|entry-date|published)\b/i;

const countWords = (s: string): number => (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/** The visible text without the header and footer regions' text (the site's chrome). */
function visibleWithoutChrome(snapshot: Snapshot): string {
  let text = snapshot.text.visible;
  for (const chrome of [snapshot.text.header, snapshot.text.footer]) {
    const c = chrome.trim();
    if (c.length >= 20) text = text.split(c).join(' ');
  }
  return toPlainText(text).slice(0, ARTICLE_TEXT_BUDGET);
}

export interface ArticleHints {
  schemaTypes: readonly string[];
  ogType: string | null;
  /** og:title, then the page's first h1: headlines to fall back on. */
  fallbackHeadlines: readonly string[];
}

export function detectArticle(snapshot: Snapshot, hints: ArticleHints): ArticleEvidence | null {
  const declared = hints.schemaTypes.some((t) => ARTICLE_TYPES.has(t)) ? 'schema.org' : hints.ogType === 'article' ? 'og:type' : null;
  const element = articleElements(snapshot.html)
    .map((inner) => ({ headline: elementHeadline(inner), body: elementText(inner) }))
    .map((e) => ({ ...e, words: countWords(e.body) }))
    .reduce<{ headline: string; body: string; words: number } | null>((a, b) => (!a || b.words > a.words ? b : a), null);
  const shown = element && element.headline !== '' && element.words >= MIN_ARTICLE_WORDS ? element : null;
  if (!declared && !shown) return null;
  // Business templates wrap any page in <article> and put og:type article everywhere; a story or a
  // post also carries a date or an author. Only a declared schema.org article needs neither.
  if (declared !== 'schema.org' && !PUBLICATION_MARKS.test(snapshot.html.slice(0, 2_000_000))) return null;

  let body = shown?.body ?? jsonLdString(snapshot.jsonLd, 'articleBody');
  if (countWords(body) < MIN_ARTICLE_WORDS) {
    // og:type article alone is a template's default on many sites' every page: it needs a body to show.
    if (declared === 'og:type' && !shown) return null;
    body = visibleWithoutChrome(snapshot);
  }
  const words = countWords(body);
  const headline = [jsonLdString(snapshot.jsonLd, 'headline'), shown?.headline ?? '', ...hints.fallbackHeadlines].find((h) => h.trim() !== '') ?? '';
  if (headline === '' || words < MIN_ARTICLE_WORDS) return null;
  return { signal: declared ?? 'element', headline, body, words };
}
