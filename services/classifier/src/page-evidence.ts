/**
 * What a page says about itself, gathered from a snapshot into plain-text fields: the classifier and
 * the description both read this, never the raw snapshot.
 */
import type { Snapshot } from '@enrich/shared/contracts';
import { metaContents, metaHttpEquiv, scanJsonLdStrings, toPlainText } from '@enrich/shared/page';
import { detectArticle, type ArticleEvidence } from './article.ts';
import { extractSchemaTypes } from './schema-types.ts';

export interface PageEvidence {
  url: string;
  /** Host without `www.`. */
  host: string;
  /** Lower-case primary language subtag from `<html lang>` or content-language meta, or null. */
  lang: string | null;
  title: string;
  /**
   * meta description, og:description, twitter:description and JSON-LD descriptions, deduplicated, in
   * that order. On an article page the JSON-LD ones are left out when the meta tags give any: JSON-LD
   * there mostly describes the publisher, not the article.
   */
  descriptions: string[];
  /** og:site_name or the JSON-LD name of the site's organisation, if any. */
  siteName: string | null;
  /** meta keywords, split. */
  keywords: string[];
  h1: string[];
  /** h2 and h3. */
  subheadings: string[];
  nav: string[];
  /** Visible body text, plain, cut to keep the per-page cost bounded. */
  visible: string;
  /** The same text with its line breaks kept (a menu label, a heading, a paragraph each end a line), for the description. */
  visibleLines?: string;
  schemaTypes: string[];
  ogType: string | null;
  /** The article's headline and body when the page is an article (article.ts), else null. */
  article: ArticleEvidence | null;
}

/**
 * Navigation labels of the sections any company's site has, whatever its trade: its jobs, its
 * investors, its sustainability report, its press room. In a menu they say what kind of organisation
 * runs the site (a big one), not its topic; "Careers" is the Careers category's word, "Investors"
 * Investing's, "Sustainability" Green Solutions'. Only a whole label is dropped, and only from the
 * navigation: a title or description that says "careers" still counts.
 */
const CORPORATE_SECTION =
  /^(?:careers?|jobs|(?:careers?|jobs) at .{1,40}|work (?:with|for) us|join (?:us|our team)|investors?|investor relations|sustainability|corporate (?:social )?responsibility|responsibility|esg|newsroom|press|press (?:room|releases|centre|center)|media (?:room|centre|center))$/i;

/** Enough text to know the topic; more only costs time. */
export const VISIBLE_TEXT_BUDGET = 30_000;

/** Every meta tag's content under one of `keys`, plain, empty ones left out, in page order. */
function metaContent(snapshot: Snapshot, ...keys: string[]): string[] {
  return metaContents(snapshot, ...keys)
    .map(toPlainText)
    .filter((s) => s !== '');
}

/** A scan rather than a parse: only the first few values are wanted, and blocks are often invalid JSON. */
function jsonLdStrings(blocks: readonly string[], key: 'description' | 'name'): string[] {
  return scanJsonLdStrings(blocks, key, { minLength: 3, maxLength: 600, limit: 5, scanChars: 100_000 }).map(toPlainText);
}

function uniq(list: readonly string[]): string[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    const k = s.toLowerCase();
    if (s === '' || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '').toLowerCase();
  } catch {
    return '';
  }
}

export function gatherPageEvidence(snapshot: Snapshot, url: string): PageEvidence {
  const langRaw = snapshot.lang ?? metaContent(snapshot, 'content-language')[0] ?? metaHttpEquiv(snapshot, 'content-language');
  const lang = langRaw
    ? (langRaw
        .trim()
        .toLowerCase()
        .split(/[-_,; ]/)[0] ??
        null) ||
      null
    : null;
  const headings = snapshot.text.headings.map((h) => ({ level: h.level, text: toPlainText(h.text) })).filter((h) => h.text !== '');
  const h1 = uniq(headings.filter((h) => h.level === 1).map((h) => h.text)).slice(0, 10);
  const schemaTypes = extractSchemaTypes(snapshot.jsonLd, snapshot.html);
  const ogType = metaContent(snapshot, 'og:type')[0]?.toLowerCase() ?? null;
  const article = detectArticle(snapshot, { schemaTypes, ogType, fallbackHeadlines: [...metaContent(snapshot, 'og:title'), ...h1] });
  const metaDescriptions = metaContent(snapshot, 'description', 'og:description', 'twitter:description');
  const jsonLdDescriptions = article && metaDescriptions.length > 0 ? [] : jsonLdStrings(snapshot.jsonLd, 'description');
  return {
    url,
    host: hostOf(snapshot.finalUrl || url) || hostOf(url),
    lang,
    title: toPlainText(snapshot.title),
    descriptions: uniq([...metaDescriptions, ...jsonLdDescriptions]),
    siteName: metaContent(snapshot, 'og:site_name', 'application-name')[0] ?? null,
    keywords: uniq(metaContent(snapshot, 'keywords').flatMap((k) => k.split(/[,;]/).map((s) => s.trim()))).slice(0, 50),
    h1,
    subheadings: uniq(headings.filter((h) => h.level === 2 || h.level === 3).map((h) => h.text)).slice(0, 40),
    nav: uniq(snapshot.text.nav.map(toPlainText))
      .filter((label) => !CORPORATE_SECTION.test(label))
      .slice(0, 80),
    visible: toPlainText(snapshot.text.visible.slice(0, VISIBLE_TEXT_BUDGET * 2)).slice(0, VISIBLE_TEXT_BUDGET),
    visibleLines: snapshot.text.visible
      .slice(0, VISIBLE_TEXT_BUDGET * 2)
      .split('\n')
      .map(toPlainText)
      .filter(Boolean)
      .join('\n')
      .slice(0, VISIBLE_TEXT_BUDGET),
    schemaTypes,
    ogType,
    article,
  };
}
