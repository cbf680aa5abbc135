/**
 * What the site calls itself, for matching logo alt texts, file names and social handles:
 * og:site_name, application-name, JSON-LD organisation names, the title's brand segment, the domain.
 */
import type { Snapshot } from '../contracts/index.ts';
import { domainLabel } from './domain.ts';
import { metaContent } from './meta.ts';
import { organizationFacts } from './jsonld.ts';

// Latin letters that Unicode does not decompose, spelled as a host name would.
const FOLDED: Record<string, string> = { ø: 'o', ł: 'l', ß: 'ss', đ: 'd', æ: 'ae', œ: 'oe', þ: 'th', ı: 'i', ð: 'd' };

/**
 * Lower-case letters and digits only, accents dropped: "Ars Technica" and "ars-technica.svg" meet
 * as "arstechnica", "Café Müller" and "cafe-muller" as "cafemuller", "Ørsted" and orsted.com as
 * "orsted". Letters of other scripts stay ("サンプル", "пример"): until 2026-11-26 only a-z and 0-9
 * did, so a Japanese, Chinese, Cyrillic or Greek name compacted to "" and was dropped wherever names
 * are compared. The form every analyzer compares names (and company its addresses) in.
 */
export function compact(s: string): string {
  return (
    s
      .normalize('NFKD')
      // Latin accents go; other scripts' marks (kana voicing, Indic vowel signs) are part of the letter.
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[øłßđæœþıð]/g, (c) => FOLDED[c] ?? c)
      .replace(/[^\p{L}\p{M}\p{N}]/gu, '')
      .normalize('NFC')
  );
}

/** Compact brand names, most trusted first, deduplicated; every entry at least 3 characters. */
export function brandNames(snapshot: Pick<Snapshot, 'meta' | 'jsonLd' | 'title' | 'finalUrl'>): string[] {
  const names = [
    metaContent(snapshot, 'og:site_name'),
    metaContent(snapshot, 'application-name'),
    ...organizationFacts(snapshot).names,
    ...titleBrandSegments(snapshot.title),
    domainLabel(snapshot.finalUrl),
  ];
  const out: string[] = [];
  for (const n of names) {
    const c = n ? compact(n) : '';
    if (c.length >= 3 && c.length <= 40 && !out.includes(c)) out.push(c);
  }
  return out;
}

/** "Pricing | Acme" -> ["Acme"]: the first and last segment of a separated title are the usual brand spots. */
function titleBrandSegments(title: string): string[] {
  const parts = title
    .split(/\s+[|\-–—:·•]\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 2) return [];
  return [parts[parts.length - 1]!, parts[0]!];
}

/** True when `text` mentions one of the brand names (compact containment either way for short texts). */
export function mentionsBrand(text: string | null | undefined, names: readonly string[]): boolean {
  if (!text) return false;
  const c = compact(text);
  if (c.length < 3) return false;
  return names.some((n) => c.includes(n) || (c.length >= 4 && n.includes(c)));
}
