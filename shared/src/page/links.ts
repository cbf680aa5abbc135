/**
 * Links on a page: the one reading of `snapshot.anchors` and of element links (`linkHref`) that the
 * analyzers and the logo ranking share. What a link is for (a social profile, a contact page, a logo's
 * home link) is the caller's business; these say only what the link is: where it points, whether it is
 * the site's own, whether it sits in the site's chrome, which addresses a `mailto:` names.
 */
import type { Anchor } from '../contracts/index.ts';
import { isSameSite, registrableDomain } from './domain.ts';

/** Header, navigation and footer: the parts of a page the site repeats on every page. */
export function isSiteChrome(region: Anchor['region']): boolean {
  return region === 'header' || region === 'nav' || region === 'footer';
}

/** Whether a `rel` attribute holds a token ("me" in "noopener me"), compared case-insensitively. */
export function hasRelToken(rel: string | null, token: string): boolean {
  return !!rel && rel.toLowerCase().split(/\s+/).includes(token.toLowerCase());
}

/** The URL without its fragment ("https://acme.com/contact#form" -> "https://acme.com/contact"). */
export function withoutFragment(url: string): string {
  return url.replace(/#.*$/, '');
}

/**
 * The addresses a `mailto:` link names, percent-decoded (a stray % keeps the raw text), split on the
 * separators RFC 6068 and mail clients accept (`,` and `;`), without the `?subject=` part. Not
 * validated: callers clean them. Empty for any other link.
 */
export function mailtoAddresses(href: string): string[] {
  if (!/^mailto:/i.test(href)) return [];
  let target = href.slice(7).split('?')[0] ?? '';
  try {
    target = decodeURIComponent(target);
  } catch {
    // keep the raw text: a stray % is no reason to lose the address
  }
  return target.split(/[,;]/);
}

function hostWithoutWww(u: URL): string {
  return u.hostname.replace(/^www\./, '');
}

/**
 * Links to the site's home: "/", "/index.html", a locale root like "/en-us/", or the root of the
 * first path segment the page lives under ("/shop/" from "/shop/cart"), for sites hosted under a prefix.
 * The host must be the page's, "www." aside.
 */
export function isHomeLink(href: string | null, pageUrl: string): boolean {
  if (!href) return false;
  try {
    const u = new URL(href);
    const page = new URL(pageUrl);
    if (hostWithoutWww(u) !== hostWithoutWww(page)) return false;
    const path = u.pathname.replace(/\/(index|default|home)\.\w+$/i, '/');
    if (/^\/([a-z]{2}([-_][a-z]{2})?\/?)?$/i.test(path)) return true;
    const prefix = /^\/[^/]+\//.exec(page.pathname)?.[0];
    return prefix !== undefined && path === prefix;
  } catch {
    return false;
  }
}

/**
 * An http(s) link to another site than the page's: another registrable domain ("shop.acme.com" linking
 * to "www.acme.com" is the same site); an IP address compares whole ("www." aside for names).
 */
export function isExternalLink(href: string | null, pageUrl: string): boolean {
  if (!href) return false;
  try {
    const u = new URL(href);
    if (!/^https?:$/.test(u.protocol)) return false;
    const page = new URL(pageUrl);
    const isIp = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
    if (isIp(u.hostname) || isIp(page.hostname)) return hostWithoutWww(u) !== hostWithoutWww(page);
    return registrableDomain(u.hostname) !== registrableDomain(page.hostname);
  } catch {
    return false;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

// Links to files, not pages: nothing to render or read as a page.
const DOCUMENT_FILE = /\.(?:pdf|jpe?g|png|gif|webp|svg|zip|docx?|xlsx?|pptx?)$/i;

/**
 * The anchors that lead to another page of the same site (same registrable domain), each with its URL
 * without fragment; links to the page itself, to files and to other schemes are left out.
 */
export function sameSitePageLinks(anchors: readonly Anchor[], pageUrl: string, siteDomain: string): Array<{ anchor: Anchor; url: string }> {
  const here = withoutFragment(pageUrl);
  const out: Array<{ anchor: Anchor; url: string }> = [];
  for (const anchor of anchors) {
    if (!/^https?:/i.test(anchor.href) || !isSameSite(anchor.href, siteDomain)) continue;
    const url = withoutFragment(anchor.href);
    if (url === here || DOCUMENT_FILE.test(pathOf(url))) continue;
    out.push({ anchor, url });
  }
  return out;
}
