/**
 * Everything one snapshot says about the company: name candidates, emails and addresses with the
 * kind of place each was found. analyze.ts merges the evidence of the requested and followed pages.
 */
import { parse, type HTMLElement } from 'node-html-parser';
import type { Snapshot } from '@enrich/shared/contracts';
import { compact, domainLabel, isHomeLink, metaContent, registrableDomain } from '@enrich/shared/page';
import { extractTextAddresses, formatPostalAddress } from './addresses/index.ts';
import { emailsFromAnchors, emailsFromCloudflareHtml, findEmailsInText, type FoundEmail } from './emails.ts';
import { readJsonLd } from './jsonld.ts';
import { collectNameCandidates, creditedNames, titleSegments, type NameCandidate } from './legal-name.ts';
import { readMicrodata } from './microdata.ts';
import { ownerAffinity } from './owner-name.ts';
import { normalizeLine, withoutTitleLines } from './text.ts';

export type AddressSource = 'jsonld' | 'microdata' | 'address' | 'text';
export interface FoundAddress {
  line: string;
  source: AddressSource;
}

export interface PageEvidence {
  url: string;
  names: NameCandidate[];
  /** Names the site gives itself (og:site_name, WebSite, title), for telling the owner from partners. */
  ownerHints: string[];
  /** The page's author as its meta tags name them (`author`, `article:author`): a person, not the owner. */
  authors: string[];
  /** The page's visible text without the lines that only show the title again (text.ts). */
  text: string;
  emails: FoundEmail[];
  addresses: FoundAddress[];
}

function parseHtml(html: string): HTMLElement {
  return parse(html, { comment: false, blockTextElements: { script: true, style: true, noscript: true, pre: true } });
}

const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'select', 'svg', 'head']);
const BLOCK =
  /^(?:address|article|aside|blockquote|br|dd|details|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)$/;

/**
 * The document's text, shown or not: what sits in a closed tab, accordion or `<details>` is the
 * page's too (innerText, the snapshot's visible text, leaves it out). Raw text, entities kept, block
 * elements on lines of their own; no script, style or form-control text.
 */
export function documentText(root: HTMLElement): string {
  const parts: string[] = [];
  const walk = (el: HTMLElement): void => {
    for (const n of el.childNodes) {
      if (n.nodeType === 3) parts.push(n.rawText);
      else if (n.nodeType === 1) {
        const tag = (n as HTMLElement).rawTagName?.toLowerCase() ?? '';
        if (NOT_TEXT.has(tag)) continue;
        const block = BLOCK.test(tag);
        if (block) parts.push('\n');
        walk(n as HTMLElement);
        if (block) parts.push('\n');
      }
    }
  };
  walk(root);
  return parts.join('');
}

/** An address at the domain of a name the page credits with making or running the site, unless the site's own. */
export function creditedMailbox(email: string, credited: ReadonlySet<string>, siteLabel: string): boolean {
  const label = compact(domainLabel(registrableDomain(email.slice(email.lastIndexOf('@') + 1).trim())));
  if (label.length < 4 || label === compact(siteLabel)) return false;
  return [...credited].some((key) => key.length >= 4 && (label === key || label.startsWith(key) || key.startsWith(label)));
}

/** `<address>` elements: scanned like text, or taken whole when short and address-like. */
function addressElements(root: HTMLElement): string[] {
  const out: string[] = [];
  for (const el of root.querySelectorAll('address')) {
    const text = el.structuredText;
    const found = extractTextAddresses(text);
    if (found.length) {
      out.push(...found);
      continue;
    }
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/@|\b(?:tel|phone|fax|e-?mail)\b|\d{3}[-.) ]\s?\d{3}[-.]\d{4}/i.test(l));
    const joined = normalizeLine(lines.join('\n'));
    if (lines.length >= 2 && /\d/.test(joined) && joined.length <= 200) out.push(joined);
  }
  return out;
}

/**
 * The alt text of the site's own logo: the first image that links to the home page, or that is marked
 * "logo" (src, class, id, ancestors) inside the header. Partner and brand logos elsewhere are not it.
 */
export function logoAlts(s: Snapshot): string[] {
  // "#top" on the home page is a back-to-top link, not the logo's link home.
  const home = (href: string | null): boolean => !!href && !href.includes('#') && isHomeLink(href, s.finalUrl || s.requestedUrl);
  return s.images
    .filter(
      (i) => i.alt?.trim() && (home(i.linkHref) || (i.region === 'header' && /logo/i.test(`${i.src} ${i.className ?? ''} ${i.id ?? ''} ${i.ancestorHints}`))),
    )
    .map((i) => i.alt!.trim())
    .slice(0, 1);
}

/**
 * The site's name written as its logo: the text of the first link home in the header or navigation
 * that holds no image (`<p class="site-title"><a href="/" rel="home">Acme News</a></p>`, WordPress's
 * own markup), when that text reads as a name (not "Home", not a navigation heading).
 */
export function textLogos(s: Snapshot, siteLabel: string): string[] {
  const page = s.finalUrl || s.requestedUrl;
  const link = s.anchors.find(
    (a) => (a.region === 'header' || a.region === 'nav' || /\bhome\b/i.test(a.rel ?? '')) && !a.href.includes('#') && isHomeLink(a.href, page),
  );
  if (!link?.text || s.images.some((i) => i.linkHref === link.href && i.region === link.region && i.alt === link.text)) return [];
  const [name] = titleSegments(link.text);
  if (!name || name !== normalizeLine(link.text)) return [];
  // It confirms a name the site gives elsewhere, or its domain: a first menu link ("Latest") is no name.
  const key = compact(name);
  const named = [...titleSegments(s.title), metaContent(s, 'og:site_name') ?? ''].some((n) => compact(n) === key);
  return named || ownerAffinity(name, siteLabel, []) > 0 ? [name] : [];
}

export function readPageEvidence(s: Snapshot, siteLabel: string): PageEvidence {
  const root = parseHtml(s.html);
  const jsonLd = readJsonLd(s.jsonLd);
  const microdata = readMicrodata(root);
  const ogSiteName = metaContent(s, 'og:site_name') ?? '';
  const applicationName = metaContent(s, 'application-name') ?? '';
  // The page's own text: a line that only shows the title again is the title, not text (text.ts).
  const visible = withoutTitleLines(s.text.visible, s.title);

  const names = collectNameCandidates({
    domainLabel: siteLabel,
    title: s.title,
    ogSiteName,
    applicationName,
    logoAlts: [...logoAlts(s), ...textLogos(s, siteLabel)],
    visibleText: visible,
    footerText: s.text.footer,
    jsonLd,
    microdata,
  });
  const ownerHints = [ogSiteName, applicationName, ...jsonLd.siteNames, ...titleSegments(s.title)].filter(Boolean);
  const authors = [metaContent(s, 'author'), metaContent(s, 'article:author')].filter((a): a is string => !!a && !/[/@]/.test(a)).map((a) => a.trim());

  const found: FoundEmail[] = [
    ...emailsFromAnchors(s.anchors),
    ...emailsFromCloudflareHtml(s.html),
    ...findEmailsInText(visible).map((email) => ({ email, source: 'text' as const })),
    // ...then those in text the page shows only on a click (a closed tab, accordion or <details>).
    ...findEmailsInText(documentText(root)).map((email) => ({ email, source: 'text' as const })),
    // Script-written addresses ("enkoder" and the like) leave a written-out copy in <noscript> for people without JavaScript.
    ...root
      .querySelectorAll('noscript')
      .flatMap((n) => findEmailsInText(n.text))
      .map((email) => ({ email, source: 'text' as const })),
    ...[...jsonLd.emails, ...jsonLd.orgs.flatMap((o) => o.emails)].map((email) => ({ email, source: 'jsonld' as const })),
    ...[...microdata.emails, ...microdata.orgs.flatMap((o) => o.emails)].map((email) => ({ email, source: 'microdata' as const })),
  ];
  // The web agency's or platform's own address in its credit ("Site by Copperline Digital (studio@copperline.ie)").
  const credited = creditedNames(visible);
  const emails = credited.size ? found.filter((f) => !creditedMailbox(f.email, credited, siteLabel)) : found;

  const addresses: FoundAddress[] = [];
  for (const [data, source] of [
    [jsonLd, 'jsonld'],
    [microdata, 'microdata'],
  ] as const) {
    // The page's own organisation first; addresses of nested items (a brand, an author) are not the owner's.
    // The site's own and its publisher's addresses; a parent's headquarters is not the site's address.
    const orgAddresses = data.orgs.filter((o) => o.role === 'main' || o.role === 'publisher').flatMap((o) => o.addresses);
    for (const a of [...orgAddresses, ...data.looseAddresses]) {
      const line = formatPostalAddress(a);
      if (line) addresses.push({ line, source });
    }
  }
  for (const line of addressElements(root)) addresses.push({ line, source: 'address' });
  for (const line of extractTextAddresses(visible, siteLabel)) addresses.push({ line, source: 'text' });

  return { url: s.finalUrl || s.requestedUrl, names, ownerHints, authors, text: visible, emails, addresses };
}
