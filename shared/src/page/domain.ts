/**
 * The site a page belongs to: its registrable domain ("acme.co.uk" for www.shop.acme.co.uk) and that
 * domain's distinctive label ("acme"), for "same site" decisions and for matching names to the domain.
 */

// Second-level labels under which companies register names (acme.co.uk, acme.com.au), counted only
// under a two-letter country code.
const SECOND_LEVEL = /^(?:co|com|net|org|gov|ac|edu|ltd|plc|me|or|ne|go|gv|asn|id)$/;

/** "https://www.shop.acme.co.uk/x" (or the bare host) -> "acme.co.uk"; "" when the URL does not parse. */
export function registrableDomain(hostOrUrl: string): string {
  let host = hostOrUrl;
  try {
    if (/^[a-z][a-z0-9+.-]*:/i.test(hostOrUrl)) host = new URL(hostOrUrl).hostname;
  } catch {
    return '';
  }
  const labels = host.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  if (labels.length <= 2) return labels.join('.');
  const take = SECOND_LEVEL.test(labels[labels.length - 2]!) && labels[labels.length - 1]!.length === 2 ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** The distinctive label of a URL's, host's or domain's registrable domain: "acme" for www.acme.co.uk, shop.acme.com, acme.io. */
export function domainLabel(hostOrUrl: string): string {
  return registrableDomain(hostOrUrl).split('.')[0] ?? '';
}

export function isSameSite(url: string, siteDomain: string): boolean {
  return !!siteDomain && registrableDomain(url) === siteDomain;
}
