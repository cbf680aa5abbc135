/**
 * The legal name of the site's owner. Every place a page names an organisation becomes a weighted
 * candidate; candidates that are the same company (equal once the legal form is set aside) pool
 * their evidence, and closeness to the site's own identity (domain, og:site_name, title) separates
 * the owner from partners, clients and web agencies named on the same page.
 */
import { hasStrongLegalForm, legalFormOf, LEGAL_FORM_IN_TEXT, stripLegalForm } from './legal-forms.ts';
import type { StructuredData } from './structured-types.ts';
import { compact, normalizeLine } from './text.ts';

export type NameSource = 'jsonld' | 'microdata' | 'footer' | 'imprint' | 'og' | 'title' | 'text';

export interface NameCandidate {
  name: string;
  source: NameSource;
  /** How much this one sighting says, before agreement and owner affinity are counted. */
  weight: number;
}

// Name words: capitalised words and the lower-case joiners company names contain.
const WORD = String.raw`(?:[A-Z0-9ÄÖÜÉÈÀÅØ][\w'’.&+-]*|&|and|of|the|for|de|du|des|di|da|la|le|van|von|der|den|und|für|et|y|e)`;
const NAME_BEFORE_FORM = new RegExp(String.raw`(?<![\w'’-])((?:[A-Z0-9ÄÖÜÉÈÀÅØ][\w'’.&+-]*)(?:[ \t]+${WORD}){0,6}?)(?:,?[ \t]+)(${LEGAL_FORM_IN_TEXT})(?=$|[\s,;:)|/®™]|[.](?:\s|$))`, 'gm');

/** Legal names ("Acme Widgets, Inc.") written anywhere in a stretch of text. */
export function findLegalNamesInText(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NAME_BEFORE_FORM)) {
    // A leading year is the tail of a copyright line, not part of the name.
    const head = m[1]!.replace(/^(?:(?:19|20)\d\d\s+)+/, '');
    const name = normalizeLine(`${head}${m[0].slice(m[1]!.length)}`);
    // Runs of capitals like "MA MI MN NV" (a list of states) are no name: ask for one real word.
    if (!/\p{L}{3,}/u.test(stripLegalForm(name))) continue;
    if (hasStrongLegalForm(name) || legalFormOf(name)) out.push(name);
  }
  return out;
}

const COPYRIGHT = /(?:©|\(c\)|&copy;|\bcopyright\b)[ \t]*(.{0,200})/gi;
const YEARS = /\b(?:19|20)\d{2}\b(?:\s*[-–—/]\s*(?:(?:19|20)\d{2}|\d{2}|present|heute))?/gi;
const AGENCY = /\b(?:powered|designed|developed|hosted|built|created|made|maintained)\s+(?:by|with)\b|\b(?:website|site|web design|webdesign)\s+(?:by|design)\b/i;
const STOP = /\s*(?:all rights reserved|alle rechte vorbehalten|tous droits réservés|todos los derechos|all right reserved|rights reserved|[|•·]|\s[-–—]\s|privacy|terms of|sitemap|legal notice|disclaimer)/i;

/** The holder named in a copyright line: "© 2024 Acme Widgets, Inc. All rights reserved." -> "Acme Widgets, Inc.". */
export function copyrightHolders(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(COPYRIGHT)) {
    let rest = (m[1] ?? '').split('\n')[0]!;
    rest = rest.replace(/©|\(c\)|\bcopyright\b/gi, ' ').replace(YEARS, ' ').replace(/^[\s,.:;-]+/, '').replace(/^by\s+/i, '');
    const agency = AGENCY.exec(rest);
    if (agency) rest = rest.slice(0, agency.index);
    const legal = findLegalNamesInText(rest)[0];
    if (legal && rest.indexOf(legal.split(/[\s,]/)[0]!) < 3) {
      out.push(legal);
      continue;
    }
    const stop = STOP.exec(rest);
    let holder = stop ? rest.slice(0, stop.index) : rest;
    holder = holder.replace(/\.(?:\s.*)?$/, '').replace(/[\s,.;:]+$/, '').trim();
    const words = holder.split(/\s+/).filter(Boolean);
    if (words.length >= 1 && words.length <= 7 && /^[\p{L}\d]/u.test(holder) && /\p{L}{2,}/u.test(holder) && holder.length <= 80) out.push(holder);
  }
  return out;
}

const IMPRINT_HEADING = /^[ \t]*(?:impressum|imprint|legal notice|legal information|site notice|mentions l[ée]gales|colofon|aviso legal|note legali|angaben gem(?:ä|ae)(?:ß|ss) § ?5 tmg)\b.*$/gim;

/** Legal names in the block under an Impressum / Imprint / Mentions légales heading. */
export function imprintNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPRINT_HEADING)) {
    const block = text.slice(m.index + m[0].length, m.index + m[0].length + 600);
    const names = findLegalNamesInText(block);
    if (names[0]) out.push(names[0]);
  }
  return out;
}

const GENERIC_TITLE = /^(?:home|homepage|home page|welcome|index|main|start|startseite|accueil|contact(?: us)?|about(?: us)?|official site|official website|untitled|page not found|404|blog|news|shop|store)$/i;

/** The parts of a page title that can be a site name: "Contact | Acme Widgets" -> ["Contact", "Acme Widgets"]. */
export function titleSegments(title: string): string[] {
  return normalizeLine(title)
    .split(/\s+[|–—:·»«~]\s+|\s+-{1,2}\s+|\s*\|\s*|::/)
    .map((s) => s.replace(/^welcome to\s+/i, '').trim())
    .filter((s) => s && !GENERIC_TITLE.test(s) && s.split(/\s+/).length <= 7);
}

/**
 * Names written in the text that spell the site's domain: "Darling Homes" on darlinghomes.com,
 * "H&S Solicitors" on handssolicitors.co.uk, "Leeward Productions" on leewardpro.com (a prefix).
 * Most reliable on small sites that state their name nowhere else.
 */
export function domainSpelledNames(text: string, label: string): string[] {
  const d = label.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (d.length < 4) return [];
  const words = text.split(/[\s|,;:()"“”]+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const firstChar = compact(words[i]!.replace(/&/g, 'and'))[0];
    if (!firstChar || !d.startsWith(firstChar)) continue;
    let acc = '';
    for (let j = i; j < Math.min(words.length, i + 6); j++) {
      acc += compact(words[j]!.replace(/&/g, 'and'));
      const tld = acc.startsWith(d) ? acc.slice(d.length) : null;
      const exact = acc === d || (tld !== null && /^(?:com|net|org|co|us|ca|couk|comau|info|biz)$/.test(tld));
      // A domain that abbreviates the name's last word: leewardpro -> Leeward Productions.
      const prefix = tld !== null && !exact && j > i && d.length >= 6 && acc.length - d.length <= 12 && compact(words[j]!).startsWith(d.slice(acc.length - compact(words[j]!).length));
      if (exact || prefix) {
        const name = words.slice(i, j + 1).join(' ').replace(/^[^\p{L}\d]+|[^\p{L}\d.]+$/gu, '').replace(/\.$/, '');
        if (/^[\p{Lu}\d]/u.test(name) || /\p{Lu}/u.test(name.slice(1))) out.push(name);
        break;
      }
      if (!d.startsWith(acc)) break;
    }
  }
  return out;
}

export interface PageNameFacts {
  /** The distinctive label of the site's domain ("acme" for www.acme.co.uk). */
  domainLabel: string;
  title: string;
  ogSiteName: string;
  applicationName: string;
  visibleText: string;
  footerText: string;
  jsonLd: StructuredData;
  microdata: StructuredData;
}

/** Every naming of an organisation on one page, weighted by how much its place can be trusted. */
export function collectNameCandidates(p: PageNameFacts): NameCandidate[] {
  const out: NameCandidate[] = [];
  const push = (name: string, source: NameSource, weight: number): void => {
    // A service or trade mark glued to the last word ("Tropical Web WorksSM") is no part of the name.
    const n = normalizeLine(name).replace(/(?<=\p{Ll})(?:SM|TM)$/u, '').replace(/[®™℠]/g, '').trim();
    if (n && n.length <= 120 && /\p{L}/u.test(n)) out.push({ name: n, source, weight });
  };
  for (const [data, source] of [[p.jsonLd, 'jsonld'], [p.microdata, 'microdata']] as const) {
    for (const org of data.orgs) {
      const roleWeight = org.role === 'main' ? 1 : org.role === 'publisher' ? 0.8 : 0.35;
      if (org.legalName) push(org.legalName, source, 1.0 * roleWeight);
      if (org.name) push(org.name, source, 0.8 * roleWeight);
    }
    for (const n of data.siteNames) push(n, source, 0.5);
  }
  // The footer is where a site states its owner; a copyright line elsewhere in the text counts less.
  const footerHolders = copyrightHolders(p.footerText);
  for (const h of footerHolders) push(h, 'footer', 0.7);
  for (const h of copyrightHolders(p.visibleText)) if (!footerHolders.includes(h)) push(h, 'footer', 0.6);
  for (const n of imprintNames(p.visibleText)) push(n, 'imprint', 0.9);
  if (p.ogSiteName) push(p.ogSiteName, 'og', 0.5);
  if (p.applicationName) push(p.applicationName, 'og', 0.3);
  for (const s of titleSegments(p.title)) push(s, 'title', 0.3);
  for (const n of findLegalNamesInText(p.visibleText).slice(0, 50)) push(n, 'text', 0.2);
  // Spellings of the domain: each repeated sighting adds a little, up to the weight of a footer line.
  const spelled = new Map<string, number>();
  for (const n of [...domainSpelledNames(p.title, p.domainLabel), ...domainSpelledNames(p.visibleText, p.domainLabel)]) {
    spelled.set(n, (spelled.get(n) ?? 0) + 1);
  }
  for (const [n, count] of spelled) push(n, 'text', Math.min(0.6, 0.3 + 0.1 * (count - 1)));
  return out;
}

/** How much a name looks like the site's own identity, in [0, 1]. */
export function ownerAffinity(name: string, domainLabel: string, hints: readonly string[]): number {
  const core = compact(stripLegalForm(name)).replace(/^the(?=.{4})/, '');
  if (!core) return 0;
  let best = 0;
  const d = domainLabel.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (d.length >= 2) {
    if (core === d) best = 1;
    else if (core.length >= 4 && (core.startsWith(d) || d.startsWith(core))) best = 0.9;
    else if (core.length >= 4 && d.length >= 4 && (d.includes(core) || core.includes(d))) best = 0.75;
    else {
      const initials = stripLegalForm(name).split(/[\s&-]+/).filter((w) => /^[\p{L}\d]/u.test(w)).map((w) => w[0]!.toLowerCase()).join('');
      if (initials.length >= 2 && (initials === d || d.startsWith(initials))) best = 0.7;
      // A shared distinctive word: "Balise Chevrolet" on baliseauto.com.
      else if (stripLegalForm(name).split(/\s+/).some((w) => compact(w).length >= 4 && d.includes(compact(w)))) best = 0.55;
    }
  }
  for (const h of hints) {
    const hc = compact(stripLegalForm(h)).replace(/^the(?=.{4})/, '');
    if (!hc) continue;
    // Exact agreement is already counted as evidence when the hint is itself a candidate.
    if (core.length >= 4 && hc.length >= 4 && (hc.includes(core) || core.includes(hc))) best = Math.max(best, 0.5);
  }
  return best;
}

export interface NameChoice {
  name: string;
  /** The sources that named the chosen company. */
  sources: NameSource[];
  /** Pooled evidence of the chosen company (sum of the best weight per source). */
  evidence: number;
  affinity: number;
}

/** The comparison key of a name: no legal form, no leading "the", no ".com", "&" read as "and". */
const keyOf = (name: string): string =>
  compact(stripLegalForm(name).replace(/&/g, ' and ').replace(/\.(?:com|net|org|co\.uk|com\.au|ca|us|info|biz)$/i, '')).replace(/^the(?=.{4})/, '');

/** Picks the owner's name from the candidates of all pages; null when there is none. */
export function chooseLegalName(
  candidates: readonly NameCandidate[],
  domainLabel: string,
  hints: readonly string[],
  /** Titles and visible texts of the pages, to count how often each spelling is used. */
  texts: readonly string[] = [],
): NameChoice | null {
  const haystack = texts.join('\n').toLowerCase().replace(/\s+/g, ' ');
  const usageCache = new Map<string, number>();
  const usage = (name: string): number => {
    let n = usageCache.get(name);
    if (n === undefined) {
      n = haystack.split(name.toLowerCase().replace(/\s+/g, ' ')).length - 1;
      usageCache.set(name, n);
    }
    return n;
  };
  const wordCount = (name: string): number => stripLegalForm(name).split(/\s+/).filter(Boolean).length;
  const groups = new Map<string, NameCandidate[]>();
  for (const c of candidates) {
    const k = keyOf(c.name);
    if (k.length < 2) continue;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  // A short form and a longer name that begins with it are one company ("Callows" / "Callows Audio",
  // "LeewardPro" / "Leeward Productions"): the short one joins the longest such group.
  const keys = [...groups.keys()].sort((x, y) => y.length - x.length);
  for (const short of [...keys].reverse()) {
    if (short.length < 4) continue;
    const shortWords = Math.min(...groups.get(short)!.map((c) => wordCount(c.name)));
    // At most four more words: "Stryker Completes Acquisition of …" is a headline, not Stryker's name.
    const long = keys.find(
      (k) => k.length > short.length && k.startsWith(short) && groups.has(k) && groups.get(k)!.some((c) => wordCount(c.name) - shortWords <= 4),
    );
    if (long && groups.has(short)) {
      groups.set(long, [...groups.get(long)!, ...groups.get(short)!]);
      groups.delete(short);
    }
  }
  let best: (NameChoice & { score: number }) | null = null;
  for (const group of groups.values()) {
    const perSource = new Map<NameSource, number>();
    for (const c of group) perSource.set(c.source, Math.max(perSource.get(c.source) ?? 0, c.weight));
    const evidence = [...perSource.values()].reduce((a, b) => a + b, 0);
    const affinity = Math.max(...group.map((c) => ownerAffinity(c.name, domainLabel, hints)));
    const legal = group.some((c) => hasStrongLegalForm(c.name)) ? 0.3 : 0;
    const score = evidence + 1.2 * affinity + legal;
    if (!best || score > best.score) {
      // Show the most official spelling: a legal form first, then the fullest name the page really uses
      // (at least 40% as often as its commonest spelling: "Woods Insurance Service" over "Woods
      // Insurance", but not "AgileZen Support" over "AgileZen"), then the best-weighted sighting.
      const maxUse = Math.max(1, ...group.map((c) => usage(c.name)));
      const display = [...group].sort(
        (a, b) =>
          Number(hasStrongLegalForm(b.name)) - Number(hasStrongLegalForm(a.name)) ||
          Number(usage(b.name) >= 0.4 * maxUse) - Number(usage(a.name) >= 0.4 * maxUse) ||
          keyOf(b.name).length - keyOf(a.name).length ||
          b.weight - a.weight,
      )[0]!;
      best = { name: display.name, sources: [...perSource.keys()], evidence, affinity, score };
    }
  }
  if (!best) return null;
  return { name: best.name, sources: best.sources, evidence: best.evidence, affinity: best.affinity };
}
