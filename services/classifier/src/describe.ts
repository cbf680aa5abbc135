/**
 * The description: one or two plain sentences saying what the site is or offers, taken from what the
 * site says about itself (meta/og/JSON-LD descriptions first, then its own sentences that describe it).
 * Never empty, never over 300 characters, never the title again. When the page offers nothing usable,
 * an honest sentence built from the site's name and category.
 */
import { toPlainText } from '@enrich/shared/page';
import type { PageEvidence } from './page-evidence.ts';

export const MAX_DESCRIPTION_CHARS = 300;
const MIN_SENTENCE_CHARS = 25;

const BOILERPLATE =
  /\b(cookies?|javascript|browser|copyright|all rights reserved|log ?in|sign ?in|sign up|click here|subscribe|newsletter|privacy policy|terms of (use|service)|page not found|404|loading|skip to|enable|captcha|lorem ipsum|read more)\b/i;
/** Words of a sentence that talks about the site or its owner, not about one item on the page. */
const SELF_DESCRIPTION =
  /\b(we|our|us|is an?|are an?|provides?|providing|offers?|offering|specializ\w*|specialis\w*|dedicated to|serving|founded|leading|family[- ]owned|welcome to)\b/i;

const normalized = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

export function splitSentences(text: string): string[] {
  // A period after a lone capital or a common abbreviation does not end a sentence ("St. Louis", "Inc.").
  return text
    .replace(/\b(Mr|Mrs|Ms|Dr|St|Inc|Ltd|Co|Corp|Jr|Sr|No|vs|etc|e\.g|i\.e|U\.S)\./g, '$1\u0000')
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“'])/u)
    .map((s) => s.replace(/\u0000/g, '.').trim())
    .filter(Boolean);
}

/** At most two sentences and MAX_DESCRIPTION_CHARS; a lone over-long sentence is cut at a word. */
export function fitDescription(text: string): string {
  const sentences = splitSentences(text);
  const first = sentences[0] ?? '';
  if (first.length > MAX_DESCRIPTION_CHARS) {
    const cut = first.slice(0, MAX_DESCRIPTION_CHARS - 1);
    const atWord = cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_DESCRIPTION_CHARS / 2)).replace(/[\s,;:–—-]+$/, '');
    return `${atWord}…`;
  }
  const second = sentences[1];
  return second && first.length + 1 + second.length <= MAX_DESCRIPTION_CHARS ? `${first} ${second}` : first;
}

/** A run of menu labels ("Home About Us Products Contact us") rather than prose. */
export function looksLikeMenu(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (words.length < 8) return false;
  const capitalized = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  return capitalized / words.length > 0.7;
}

function isUsable(text: string, page: PageEvidence): boolean {
  if (text.length < MIN_SENTENCE_CHARS || BOILERPLATE.test(text) || looksLikeMenu(text)) return false;
  // Starts like prose, and is not mostly a phone number or an address block.
  if (!/^[\p{L}\p{N}"“'‘(]/u.test(text) || (text.match(/\d/g)?.length ?? 0) > text.length * 0.15) return false;
  if (!/\p{L}{3}/u.test(text) || /https?:\/\/|www\.|[{}<>]|\|/.test(text)) return false;
  const t = normalized(text);
  const title = normalized(page.title);
  // Not the title repeated, nor the title with a few words around it.
  if (t === title || (title.length > 0 && title.includes(t)) || (t.includes(title) && t.length < title.length + 20)) return false;
  return t.split(' ').length >= 5;
}

/**
 * The text's lines, a line that goes on in lower case joined to the one before it (a `<br>` inside a
 * sentence): a sentence never runs across the end of a menu label, a heading or a button, which end
 * their lines without a full stop ("Home / Experiences / Meet the Birds / Welcome to Highmoor …" had
 * read as one sentence opening with the menu).
 */
export function proseLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const last = out[out.length - 1];
    if (last !== undefined && /^\p{Ll}/u.test(line) && !/[.!?:]$/.test(last)) out[out.length - 1] = `${last} ${line}`;
    else out.push(line);
  }
  return out;
}

/** The site's own sentences that describe it, in page order, for pages without a meta description. */
export function selfDescribingSentences(page: PageEvidence): string[] {
  const nameWords = [page.siteName, page.host.split('.')[0]].filter((s): s is string => !!s && s.length > 2).map((s) => s.toLowerCase());
  return proseLines((page.visibleLines ?? page.visible).slice(0, 15_000))
    .flatMap(splitSentences)
    .filter((s) => s.length <= 400 && /[.!]$/.test(s))
    .filter((s) => SELF_DESCRIPTION.test(s) || nameWords.some((n) => s.toLowerCase().includes(n)))
    .slice(0, 20);
}

const GENERIC_PAGE_NAMES = /^(home( ?page)?|contact( us)?|about( us)?|welcome|index|locations?|our team|team)$/i;

/** A readable name for the site: og:site_name, else the title's brand part, else the host. */
export function siteNameOf(page: PageEvidence): string {
  if (page.siteName && page.siteName.length <= 80) return page.siteName;
  const parts = page.title
    .split(/\s+[|–—:»·•-]\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 2 && s.length <= 60 && !GENERIC_PAGE_NAMES.test(s));
  return parts.length > 0 ? (parts.length > 1 ? parts[parts.length - 1]! : parts[0]!) : page.host || 'This site';
}

export interface DescribedCategory {
  category: string;
  subcategory: string;
  lowEvidence: boolean;
}

export function describeSite(page: PageEvidence, category: DescribedCategory): string {
  const candidates = [...page.descriptions, ...selfDescribingSentences(page)].map(toPlainText);
  for (const c of candidates) {
    const fitted = fitDescription(c);
    if (isUsable(fitted, page)) return fitted;
  }
  const name = siteNameOf(page);
  const sentence = category.lowEvidence
    ? `${name} is a website whose pages say too little about it to tell what it offers.`
    : `${name} is a website about ${(category.subcategory || category.category).replace(/&/g, 'and')}.`;
  return fitDescription(toPlainText(sentence)) || 'A website whose pages say too little about it to describe.';
}
