/**
 * Who owns the site, as two names. Candidates of all pages that are the same company once the legal
 * form, "the", ".com" and "&"/"and" are set aside pool their evidence as a group; closeness to the
 * site's own identity (domain, og:site_name, title) picks the organisation among the groups, above
 * partners, clients and web agencies named on the same pages. Its brand name is the name people call
 * it; its legal name is the most official spelling the pages state, or the entity that a copyright,
 * imprint or JSON-LD legalName names instead of the brand ("© Taylor Morrison, Inc."
 * on a Darling Homes site).
 */
import { compact } from '@enrich/shared/page';
import { isUsTownAndState } from './addresses/index.ts';
import { hasStrongLegalForm, legalFormCountries, legalFormOf, stripLegalForm } from './legal-forms.ts';
import {
  ASSOCIATION_NAME,
  isBareHost,
  ORGANISATION_ITSELF,
  OWN_LEGAL_NAME,
  ORGANISATION_OWNER,
  SITE_ITSELF,
  type NameCandidate,
  type NameSource,
} from './legal-name.ts';

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
      const initials = stripLegalForm(name)
        .split(/[\s&-]+/)
        .filter((w) => /^[\p{L}\d]/u.test(w))
        .map((w) => w[0]!.toLowerCase())
        .join('');
      if (initials.length >= 2 && (initials === d || d.startsWith(initials))) best = 0.7;
      // A shared distinctive word: "Balise Chevrolet" on baliseauto.com.
      else if (
        stripLegalForm(name)
          .split(/\s+/)
          .some((w) => compact(w).length >= 4 && d.includes(compact(w)))
      )
        best = 0.55;
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
  /** The legal name where the pages state one, else the organisation's name. */
  name: string;
  /** The name people call it: og:site_name, else the organisation's own spelling without legal form. */
  brandName: string;
  /** The sources that named the chosen company (and its legal entity). */
  sources: NameSource[];
  /** Pooled evidence of the organisation (sum of the best weight per source). */
  evidence: number;
  affinity: number;
}

/** The comparison key of a name: no legal form, no leading "the", no ".com", "&" read as "and". */
export const keyOf = (name: string): string =>
  compact(
    stripLegalForm(name)
      .replace(/&/g, ' and ')
      .replace(/\.(?:com|net|org|co\.uk|com\.au|ca|us|info|biz)$/i, ''),
  ).replace(/^the(?=.{4})/, '');

// Template placeholders, never anybody's name.
const PLACEHOLDER =
  /^(?:(?:insert|enter|add)\s+)?(?:(?:your|my)\s+)?(?:company|business|brand|site|website|store|shop|organi[sz]ation)(?:\s+name)?(?:\s+here)?$|^(?:your|my)\s+(?:name|logo|site title)$|^(?:site|website)\s+(?:title|name)$|^lorem ipsum\b|^logo$/i;
// Website builders, shop and blog platforms: on another site their name is a "powered by" credit.
const PLATFORMS = new Set([
  'shopify',
  'wix',
  'wixcom',
  'wordpress',
  'wordpresscom',
  'squarespace',
  'godaddy',
  'weebly',
  'jimdo',
  'webflow',
  'bigcommerce',
  'volusion',
  'zencart',
  'magento',
  'prestashop',
  'opencart',
  'woocommerce',
  'blogger',
  'joomla',
  'drupal',
  'yola',
  'webs',
  'site123',
  'duda',
  'strikingly',
  'ecwid',
  'bigcartel',
  '3dcart',
  'homestead',
  'ghost',
  'substack',
]);

// A person, not a company: a middle initial ("John W. Callinan"), or an honorific or credential
// around at most three words ("Dr. Jane Roe", "Jane Roe, DDS").
const PERSON =
  /^\p{Lu}\p{Ll}+\s\p{Lu}\.\s\p{Lu}\p{Ll}+$|^(?:Dr|Mr|Mrs|Ms|Prof)\.?(?:\s\p{Lu}[\p{L}.'-]*){1,3}$|^(?:\p{Lu}[\p{L}.'-]*\s){1,2}\p{Lu}[\p{L}'-]*,?\s(?:MD|M\.D\.|DDS|DMD|Esq\.?|PhD|Ph\.D\.|CPA)$/u;

/**
 * A placeholder, a platform's name on a site that is not the platform's, a person, or a place: the
 * town or region of one of the pages' own addresses ("Springfield" beside "1 Main St, Springfield, IL 62701"),
 * or a US town with its state ("© 2018 Bar Harbor, Maine").
 */
export function isJunkName(name: string, domainLabel: string, places: ReadonlySet<string> = new Set()): boolean {
  const core = compact(stripLegalForm(name));
  const n = name.trim();
  return (
    PLACEHOLDER.test(n) ||
    PLACEHOLDER.test(stripLegalForm(n)) ||
    PERSON.test(n) ||
    (PLATFORMS.has(core) && core !== compact(domainLabel)) ||
    // An address line may carry the business's own name ("Kingsmere Dental, 3 Quarry Street, Guildford"):
    // a name the domain spells is the site's, not a town.
    (places.has(core) && !compact(domainLabel).startsWith(core)) ||
    isUsTownAndState(n)
  );
}

/** The towns and regions of address lines: every comma-separated part after the first, digits removed. */
export function placesOf(addresses: readonly string[]): Set<string> {
  return new Set(
    addresses.flatMap((a) => {
      const parts = a.split(',');
      // The town and region follow the street line; what comes before it names the recipient or the
      // building ("Wattle & Wool, Studio: 8 Camp Street, Ballarat VIC 3350"), never a place.
      const street = parts.findLastIndex((p, i) => i < parts.length - 1 && STREET_NUMBER.test(p));
      return parts
        .slice(Math.max(1, street + 1))
        .map((p) => compact(p.replace(/\d+/g, '')))
        .filter((p) => p.length >= 3);
    }),
  );
}

/** A house number before a street's name ("8 Camp Street", "1718 Connecticut Ave.", "6th Floor"). */
const STREET_NUMBER = /(?<![\p{L}\p{N}])\d+[a-z]?(?:st|nd|rd|th)?\s+\p{L}/u;

const wordCount = (name: string): number => stripLegalForm(name).split(/\s+/).filter(Boolean).length;

/**
 * Candidates grouped by key. A short form and a longer name that begins with it are one company
 * ("Callows" / "Callows Audio", "LeewardPro" / "Leeward Productions"): the short one joins the such
 * group with the most weight, if that name has at most four more words ("Stryker Completes Acquisition
 * of …" is a headline). Not the longest: a title's "Acme Renovation, North Vancouver" would take the
 * short forms from the footer's "© Acme Renovations Ltd.".
 */
function groupCandidates(candidates: readonly NameCandidate[]): NameCandidate[][] {
  const groups = new Map<string, NameCandidate[]>();
  for (const c of candidates) {
    const k = keyOf(c.name);
    if (k.length < 2) continue;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const keys = [...groups.keys()].sort((x, y) => y.length - x.length);
  for (const short of [...keys].reverse()) {
    if (short.length < 4) continue;
    const shortWords = Math.min(...groups.get(short)!.map((c) => wordCount(c.name)));
    const weight = (k: string): number => groups.get(k)!.reduce((sum, c) => sum + c.weight, 0);
    const long = keys
      .filter((k) => k.length > short.length && k.startsWith(short) && groups.has(k) && groups.get(k)!.some((c) => wordCount(c.name) - shortWords <= 4))
      .reduce<string | undefined>((best, k) => (best === undefined || weight(k) > weight(best) ? k : best), undefined);
    if (long && groups.has(short)) {
      groups.set(long, [...groups.get(long)!, ...groups.get(short)!]);
      groups.delete(short);
    }
  }
  return [...groups.values()];
}

interface Group {
  members: NameCandidate[];
  sources: NameSource[];
  evidence: number;
  affinity: number;
  score: number;
}

/** Group score = sum over sources of the best weight of that source + 1.2 × owner affinity + 0.3 for a strong legal form. */
function scoreGroup(members: NameCandidate[], domainLabel: string, hints: readonly string[]): Group {
  const perSource = new Map<NameSource, number>();
  for (const c of members) perSource.set(c.source, Math.max(perSource.get(c.source) ?? 0, c.weight));
  const evidence = [...perSource.values()].reduce((a, b) => a + b, 0);
  const affinity = Math.max(...members.map((c) => ownerAffinity(c.name, domainLabel, hints)));
  const legal = members.some((c) => hasStrongLegalForm(c.name)) ? 0.3 : 0;
  return { members, sources: [...perSource.keys()], evidence, affinity, score: evidence + 1.2 * affinity + legal };
}

/**
 * Written in capitals only, with a word of four letters or more: how a footer styled
 * `text-transform: uppercase` reads in the browser's text ("ACME WIDGETS, INC."), not how the
 * company writes itself. Short all-caps names ("IBM", "BMW AG") are not shouting.
 */
export function isShouted(name: string): boolean {
  return !/\p{Ll}/u.test(name) && /\p{Lu}{4}/u.test(name);
}

/**
 * The organisation's spelling: the fullest name the pages really use (at least 40% as often as its
 * commonest spelling: "Woods Insurance Service" over "Woods Insurance", not "AgileZen Support" over
 * "AgileZen"), then one not in capitals only when the pages also write it in mixed case ("Acme
 * Widgets, Inc." in a sentence over the uppercased footer's "ACME WIDGETS, INC."), then the
 * best-weighted sighting.
 */
function organisationSpelling(members: readonly NameCandidate[], usage: (name: string) => number): NameCandidate {
  const maxUse = Math.max(1, ...members.map((c) => usage(c.name)));
  return [...members].sort(
    (a, b) =>
      Number(isBareHost(a.name)) - Number(isBareHost(b.name)) ||
      Number(usage(b.name) >= 0.4 * maxUse) - Number(usage(a.name) >= 0.4 * maxUse) ||
      keyOf(b.name).length - keyOf(a.name).length ||
      Number(isShouted(a.name)) - Number(isShouted(b.name)) ||
      b.weight - a.weight,
  )[0]!;
}

/**
 * The group's legal spelling, if the pages state one: a strong legal form (Inc., Ltd, GmbH …) first;
 * then a weak one ("Company", "Co.") where a legal statement (copyright notice, imprint, legalName) writes
 * it; then a legal statement's spelling that is no shorter than the organisation's and at most two words
 * longer ("© Heise Medien" beside "Heise"; not "© acme.com" beside "Acme Widgets", nor a slogan).
 */
function legalSpelling(members: readonly NameCandidate[], usage: (name: string) => number, region: string | null = null): NameCandidate | null {
  const strong = members.filter((c) => hasStrongLegalForm(c.name));
  // A group's company for a country ("Lion Gate Logistics Vietnam Co., Ltd.", "Fjällgren Sverige AB") is
  // not its legal spelling while the group writes another strong one ("© Lion Gate Logistics Pte. Ltd."),
  // unless the site is that country's ("Halvorsen Brands UK Ltd" in the country list of
  // halvorsenbrands.co.uk) and no legal statement names another (a copyright's "Fjällgren AB (publ)" on
  // fjallgren.se beside "Fjällgren Sverige AB").
  const regions = new Map(strong.map((c) => [c, regionOfCompany(c.name, members)]));
  const home = strong.filter((c) => regions.get(c) === null);
  // Of the country's company, a region word first ("… UK Ltd"), else a legal form of its law only ("… Pty Ltd" on a .com.au site).
  const byWord = region ? strong.filter((c) => regions.get(c) === region) : [];
  const ours = byWord.length || !region ? byWord : home.filter((c) => legalFormCountries(c.name).includes(region));
  if (ours.length && (ours.some((c) => c.legal) || !home.some((c) => c.legal))) return organisationSpelling(ours, usage);
  if (home.length) return organisationSpelling(home, usage);
  // Only companies for another country than the site's ("Seaward Youth Australia Ltd" on a .org.nz site): a
  // sister organisation's, not this site's legal spelling.
  const here = region ? strong.filter((c) => !regions.get(c) || regions.get(c) === region) : strong;
  if (here.length) return organisationSpelling(here, usage);
  const org = organisationSpelling(members, usage).name;
  // "Co." written after a longer form of the organisation's name is its legal form wherever the text
  // writes it ("Founded in 1972, Ebbing Precision Machine Co. began …" beside "Ebbing Precision").
  const abbreviated = (c: NameCandidate): boolean => /\sCo\.$/.test(c.name) && keyOf(c.name).length > keyOf(org).length;
  const weak = members.filter((c) => (c.legal || abbreviated(c)) && legalFormOf(c.name));
  if (weak.length) return organisationSpelling(weak, usage);
  const longer = (c: NameCandidate): boolean => keyOf(c.name).length >= keyOf(org).length && wordCount(c.name) - wordCount(org) <= 2;
  const stated = members.filter((c) => c.legal && !isBareHost(c.name) && longer(c));
  return stated.length ? organisationSpelling(stated, usage) : null;
}

let countryNames: Map<string, string> | undefined;
/**
 * Country and territory names in the languages of the legal forms read here, from the runtime's own
 * CLDR data (`Intl.DisplayNames`), lower-cased, with their region codes; four letters or more
 * ("Oman", not "USA" or "Man").
 */
function countries(): Map<string, string> {
  if (countryNames) return countryNames;
  const codes: string[] = [];
  for (let a = 65; a < 91; a++) for (let b = 65; b < 91; b++) codes.push(String.fromCharCode(a, b));
  countryNames = new Map<string, string>();
  for (const lang of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'nb', 'fi', 'pl', 'cs', 'tr', 'ms', 'id']) {
    const names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' });
    for (const code of codes) {
      const name = names.of(code)?.toLowerCase();
      if (name && name.length >= 4 && !countryNames.has(name)) countryNames.set(name, code);
    }
  }
  return countryNames;
}

/**
 * A strong spelling that adds to a shorter name of its group a country's name, a region code ("UK",
 * "NZ") or a place in brackets ("(M)", "(HK)", "(Shanghai)", "(Hong Kong)"): a group's company for that
 * country or city. Answers the country's region code where it names one ("GB" for "UK" or "United
 * Kingdom"), "" for a place that is no country, null for no regional company.
 */
function regionOfCompany(name: string, members: readonly NameCandidate[]): string | null {
  const words = stripLegalForm(name).split(/\s+/);
  const key = keyOf(name);
  for (const m of members) {
    const base = keyOf(m.name);
    if (base.length < 4 || base.length >= key.length || !key.startsWith(base)) continue;
    const n = stripLegalForm(m.name).split(/\s+/).length;
    const extra = words.slice(n);
    for (const w of extra) {
      const code = /^\((\p{Lu}{1,3})\)$/u.exec(w)?.[1];
      if (code) return regionCode(code) ?? '';
    }
    const bracketed = /^\((\p{Lu}[\p{L}\p{M}.' -]{0,30})\)$/u.exec(extra.join(' '))?.[1];
    if (bracketed !== undefined) return regionCode(bracketed) ?? '';
    if (extra.length === 1 && regionCode(extra[0]!) !== null) return regionCode(extra[0]!);
    for (let i = 0; i < extra.length; i++)
      for (let j = i + 1; j <= Math.min(extra.length, i + 4); j++) {
        const code = countries().get(extra.slice(i, j).join(' ').toLowerCase());
        if (code) return code;
      }
  }
  return null;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** The region code a word is or names: "UK" and "GB" are "GB", "USA" is "US", "Italy" is "IT"; else null. */
function regionCode(word: string): string | null {
  const alias: Record<string, string> = { UK: 'GB', USA: 'US', UAE: 'AE' };
  if (alias[word]) return alias[word]!;
  if (/^\p{Lu}{2}$/u.test(word)) {
    try {
      if (regionNames.of(word) !== undefined) return word;
    } catch {
      return null;
    }
  }
  return countries().get(word.toLowerCase()) ?? null;
}

/** The region code of a site's country-code top-level domain ("co.uk" is "GB"); null for .com, .org and the like. */
export function siteRegion(host: string): string | null {
  const tld = host.toLowerCase().split('.').pop() ?? '';
  if (!/^[a-z]{2}$/.test(tld)) return null;
  return regionCode(tld === 'uk' ? 'UK' : tld.toUpperCase());
}

/**
 * The one legal entity with a strong legal form that an imprint, a company profile or a registration
 * line states outside the organisation's group ("Gamskogel Hotelbetriebs GmbH & Co KG" in the fine print
 * of "Hotel Gamskogel", "KMD Clinics Ltd. Registered in England and Wales" under "© Kingsmere Dental"):
 * such a line names the site's operator, as the law or custom asks. Null when the pages state none, or
 * several (a group's page registering its sister companies names none of them).
 */
function registeredEntity(usable: readonly NameCandidate[], owner: Group): NameCandidate | null {
  const keys = new Set(owner.members.map((c) => keyOf(c.name)));
  const stated = usable.filter(
    (c) => c.source === 'imprint' && (hasStrongLegalForm(c.name) || ASSOCIATION_NAME.test(c.name)) && !keys.has(keyOf(c.name)) && !c.credited,
  );
  const distinct = new Set(stated.map((c) => keyOf(c.name)));
  return distinct.size === 1 ? stated.reduce((best, c) => (c.weight > best.weight ? c : best)) : null;
}

/** The legal entity a legal statement names outside the organisation's group: a parent or publisher. */
function parentEntity(groups: readonly Group[], owner: Group, domainLabel: string): NameCandidate | null {
  const stated = groups
    .filter((g) => g !== owner)
    .flatMap((g) => g.members)
    .filter((c) => c.legal && !isBareHost(c.name) && !isJunkName(c.name, domainLabel));
  stated.sort((a, b) => Number(hasStrongLegalForm(b.name)) - Number(hasStrongLegalForm(a.name)) || b.weight - a.weight);
  return stated[0] ?? null;
}

/**
 * og:site_name when it is a name; else the organisation's spelling without legal form (the fullest
 * name the pages really use, as for the organisation).
 */
function brandOf(owner: Group, all: readonly NameCandidate[], usage: (name: string) => number, domainLabel: string): string {
  // Not the web agency's name, which some sites' og:site_name carries ("Website by Bluegum Web Co").
  const declared = all.find(
    (c) => c.source === 'og' && c.weight >= 0.5 && !c.credited && !isBareHost(c.name) && !isJunkName(c.name, domainLabel) && wordCount(c.name) <= 6,
  );
  if (declared) return declared.name;
  // Spellings without their legal form, counted as the pages write them ("Acme Widgets" in "Acme Widgets Ltd").
  const named = owner.members.filter((c) => !isBareHost(c.name));
  const bare = (named.length ? named : owner.members).map((c) => ({ ...c, name: stripLegalForm(c.name) || c.name }));
  return organisationSpelling(bare, usage).name;
}

/** Counts how often a spelling occurs in the pages' titles and texts. */
function usageCounter(texts: readonly string[]): (name: string) => number {
  const haystack = texts.join('\n').toLowerCase().replace(/\s+/g, ' ');
  const cache = new Map<string, number>();
  return (name: string): number => {
    let n = cache.get(name);
    if (n === undefined) {
      n = haystack.split(name.toLowerCase().replace(/\s+/g, ' ')).length - 1;
      cache.set(name, n);
    }
    return n;
  };
}

/** Picks the owner's legal name and brand name from the candidates of all pages; null when there is none. */
export function chooseOwnerNames(
  candidates: readonly NameCandidate[],
  domainLabel: string,
  hints: readonly string[],
  /** Titles and visible texts of the pages, to count how often each spelling is used. */
  texts: readonly string[] = [],
  /** The pages' own address lines: their towns and regions are no names. */
  addresses: readonly string[] = [],
  /** The pages' authors as their meta tags name them: people, not the owner, unless the domain spells them. */
  authors: readonly string[] = [],
  /** The region code of the site's country-code domain (siteRegion), if it has one. */
  region: string | null = null,
): NameChoice | null {
  const places = placesOf(addresses);
  // Sites that set their own name as the author ("Fietsmakerij De Spaak" in meta author and og:site_name) keep it.
  const siteNames = new Set(hints.map(keyOf));
  const people = new Set(authors.map(keyOf).filter((k) => k.length >= 4 && !siteNames.has(k)));
  // "© 2025 Priya Raman" on a newsletter whose meta author is Priya Raman: the author's own name, no
  // legal form, not a name the site gives itself, and not the domain's (janedoe.com is Jane Doe's site).
  // Not a name a statement says owns or operates the site ("Proudly owned and operated by Tamarack Hill
  // Hospitality", which also signs as the meta author): the statement outweighs the guess.
  const operators = new Set(candidates.filter((c) => c.owns !== undefined && c.owns !== c.name).map((c) => keyOf(c.name)));
  const isAuthor = (c: NameCandidate): boolean =>
    people.has(keyOf(c.name)) && !operators.has(keyOf(c.name)) && !legalFormOf(c.name) && ownerAffinity(c.name, domainLabel, []) < 0.7;
  // A platform or agency the page credits is no owner, unless its name is the site's own ("Powered by Acme" on acme.com).
  const usable = candidates.filter(
    (c) => !isJunkName(c.name, domainLabel, places) && !(c.credited && ownerAffinity(c.name, domainLabel, hints) === 0) && !isAuthor(c),
  );
  // Ownership statements do not choose the organisation; they are read once it is chosen.
  const statements = usable.filter((c) => c.owns !== undefined);
  const groups = groupCandidates(usable.filter((c) => c.owns === undefined)).map((m) => scoreGroup(m, domainLabel, hints));
  if (!groups.length) return null;
  const owner = groups.reduce((best, g) => (g.score > best.score ? g : best));
  const usage = usageCounter(texts);
  const { own, ownedBy } = ownersStated(statements, owner, domainLabel);
  const members = [...owner.members, ...own];
  const legal = legalSpelling(members, usage, region);
  // The entity a statement says owns the organisation, unless the organisation states its own legal
  // entity with a strong legal form ("© Acme Ltd" beside "Acme is a trademark of Acme Holdings plc");
  // else the one entity an imprint or registration line states (registeredEntity); else a parent or
  // publisher, looked for only when the organisation itself states no legal entity.
  // Not a company whose legal form is only another country's than the site's ("Lionport Express Sdn. Bhd."
  // on a .sg site): an entity a statement names ("… Pte. Ltd. ("we")") outweighs it.
  const ownStrong = !!legal && hasStrongLegalForm(legal.name) && !foreignForm(legal.name, region);
  const parent =
    ownedBy && !ownStrong
      ? ownedBy
      : ownStrong
        ? null
        : (registeredEntity(usable, owner) ?? (legal || members.some((c) => c.legal) ? null : parentEntity(groups, owner, domainLabel)));
  // A legal name the page states as the organisation's own ("Its legal name is …") is the answer.
  const declared = usable.find((c) => c.owns === OWN_LEGAL_NAME);
  const name = declared?.name ?? parent?.name ?? legal?.name ?? organisationSpelling(members, usage).name;
  const sources = [...new Set([...owner.sources, ...own.map((c) => c.source), ...(parent ? [parent.source] : [])])];
  return { name, brandName: brandOf(owner, usable, usage, domainLabel), sources, evidence: owner.evidence, affinity: owner.affinity };
}

/**
 * The initials of a name's capitalised words, joining words left out, lower-cased: the organisation's
 * acronym ("The Irish Institute of Heritage Building Conservators" -> "iihbc"); '' below three letters.
 */
function initialsOf(name: string): string {
  const initials = name
    .split(/[\s-]+/)
    .filter((w) => /^\p{Lu}/u.test(w) && !/^(?:The|Of|And|For)$/.test(w))
    .map((w) => w[0]!.toLowerCase())
    .join('');
  return initials.length >= 3 ? initials : '';
}

/** A name whose legal form is of other countries' law only than the site's ("Sdn. Bhd." on a .sg site). */
function foreignForm(name: string, region: string | null): boolean {
  if (!region) return false;
  const countries = legalFormCountries(name);
  return countries.length > 0 && !countries.includes(region);
}

/** Whether whole words of `text` in a row read as one of `keys`: "Acme" in "Acme Pro", not in "Acmeville". */
function namesAKey(text: string, keys: ReadonlySet<string>): boolean {
  const words = text
    .replace(/&/g, ' and ')
    .split(/[^\p{L}\p{N}]+/u)
    .map(compact)
    .filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    let run = '';
    for (let j = i; j < Math.min(words.length, i + 10); j++) {
      run += words[j];
      if (keys.has(run)) return true;
    }
  }
  return false;
}

/**
 * The ownership statements about the organisation or the site itself ("Acme® is a trademark of …",
 * "This website is operated by …"), split into those that name the organisation's own legal spelling
 * and the best-stated other owner (a strong legal form first).
 */
function ownersStated(statements: readonly NameCandidate[], owner: Group, domainLabel: string): { own: NameCandidate[]; ownedBy: NameCandidate | null } {
  // The organisation's names, and the domain's spelling: a statement may name the site by it ("… S.L. (en
  // adelante, «Sonrisa Mar»)" on sonrisamar.es, whose organisation writes "Clínica Dental Sonrisa Mar").
  const keys = new Set([...owner.members.map((c) => keyOf(c.name)), compact(domainLabel)].filter((k) => k.length >= 4));
  const organisation = (c: NameCandidate): boolean => hasStrongLegalForm(c.name) || ORGANISATION_OWNER.test(c.name);
  const about = statements.filter(
    (c) =>
      SITE_ITSELF.test(c.owns ?? '') ||
      (ORGANISATION_ITSELF.test(c.owns ?? '') && organisation(c)) ||
      namesAKey(c.owns ?? '', keys) ||
      keys.has(initialsOf(c.owns ?? '')),
  );
  const own = about.filter((c) => keys.has(keyOf(c.name)));
  // A registration line's subject is the name it registers: it only ever confirms the organisation's own.
  const others = about.filter((c) => !keys.has(keyOf(c.name)) && c.owns !== c.name);
  others.sort((a, b) => Number(hasStrongLegalForm(b.name)) - Number(hasStrongLegalForm(a.name)) || b.weight - a.weight);
  return { own, ownedBy: others[0] ?? null };
}
