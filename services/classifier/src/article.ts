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
  signal: 'schema.org' | 'og:type' | 'element' | 'dateline';
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

// A dateline as a post's template prints it beside the headline: a date ("September 18, 2024", "8 January
// 2025", "2025-01-08") and a byline ("By Kara Lindholm", "Posted by Sal", "Written by") or a reading time.
const MONTH = String.raw`(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;
const WRITTEN_DATE = new RegExp(
  String.raw`\b(?:${MONTH}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+(?:19|20)\d{2}|\d{1,2}(?:st|nd|rd|th)?\s+${MONTH}\.?,?\s+(?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}-\d{2})\b`,
);
const BYLINE = /(?:^|[\s·|•,–—-])(?:[Bb]y|BY|[Pp]osted\s+by|[Ww]ritten\s+by|[Aa]uthor:)\s+\p{Lu}\p{L}+|\b\d{1,2}\s*(?:min(?:ute)?s?)\.?\s+read\b/u;
// A byline with no "By": the author's name (two or three capitalised words) and the date on one line,
// joined by a middle dot, a bar or a bullet ("Kirsty Lawlor · 15 Nov 2024", "Declan Moloney | Thursday,
// 24 October 2024").
const NAME_BESIDE_DATE = new RegExp(
  String.raw`(?:^|\n)[ \t]*\p{Lu}[\p{Ll}'’-]+(?:[ \t]+\p{Lu}[\p{Ll}'’-]+){1,2}[ \t]*[·|•][ \t]*(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?[ \t]+)?` +
    WRITTEN_DATE.source,
  'u',
);

/**
 * The headline's dateline in the visible text: a written date and a byline (or a reading time) within
 * a few lines of the headline. Posts of hand-made and small-business blogs print them as text, with no
 * `<time>`, schema.org or byline class. Returns where the headline starts in the visible text, or -1.
 * When several candidates have a dateline near them, the last on the page is the headline: an og:title
 * that is only the site's name is written in the header, above the post's own heading.
 */
function datelineAt(visible: string, headlines: readonly string[]): number {
  let found = -1;
  for (const h of headlines) {
    const headline = h.trim();
    if (headline.length < 10) continue;
    const at = visible.indexOf(headline);
    if (at <= found) continue;
    const near = visible.slice(Math.max(0, at - 300), at + headline.length + 300);
    if ((WRITTEN_DATE.test(near) && BYLINE.test(near)) || NAME_BESIDE_DATE.test(near)) found = at;
  }
  return found;
}

const countWords = (s: string): number => (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/**
 * The text without its lines that are a link's whole text of three words or more: the headlines of
 * "Most read", "Top stories" and "More from …" rails, a ticker's stories, related posts. They link to
 * other stories, on other topics; the story's own sentences are not links.
 */
function withoutLinkLines(snapshot: Snapshot, text: string): string {
  const links = new Set(snapshot.anchors.map((a) => a.text.replace(/\s+/g, ' ').trim()).filter((t) => t.split(' ').length >= 3));
  return text
    .split('\n')
    .filter((l) => !links.has(l.replace(/\s+/g, ' ').trim()))
    .join('\n');
}

/** The visible text without the header and footer regions' text (the site's chrome). */
function visibleWithoutChrome(snapshot: Snapshot): string {
  let text = withoutLinkLines(snapshot, snapshot.text.visible);
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
  const headlines = [...(shown ? [shown.headline] : []), ...hints.fallbackHeadlines];
  const dateline = declared === 'schema.org' ? -1 : datelineAt(snapshot.text.visible, headlines);
  if (!declared && !shown) return dateline >= 0 ? postUnderDateline(snapshot, dateline) : null;
  // Business templates wrap any page in <article> and put og:type article everywhere; a story or a
  // post also carries a date or an author. Only a declared schema.org article needs neither.
  if (declared !== 'schema.org' && dateline < 0 && !PUBLICATION_MARKS.test(snapshot.html.slice(0, 2_000_000))) return null;

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

/** A post shown only by its dateline: the headline, and the visible text from it on without the header and footer. */
function postUnderDateline(snapshot: Snapshot, at: number): ArticleEvidence | null {
  const visible = snapshot.text.visible;
  const headline = visible.slice(at).split('\n')[0]!.trim();
  let body = withoutLinkLines(snapshot, visible.slice(at + headline.length));
  const footer = snapshot.text.footer.trim();
  if (footer.length >= 20) body = body.split(footer).join(' ');
  body = toPlainText(body).slice(0, ARTICLE_TEXT_BUDGET);
  const words = countWords(body);
  return words >= MIN_ARTICLE_WORDS ? { signal: 'dateline', headline, body, words } : null;
}
