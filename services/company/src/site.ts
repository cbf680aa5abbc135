/** The site a page belongs to, for "same site" decisions about emails and links. */

// Second-level labels under which companies register names (acme.co.uk, acme.com.au).
const SECOND_LEVEL = /^(?:co|com|net|org|gov|ac|edu|ltd|plc|me|or|ne|go|gv|asn|id)$/;

/** "https://www.shop.acme.co.uk/x" -> "acme.co.uk"; "" when the URL does not parse. */
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

/** The distinctive label of a domain: "acme.co.uk" -> "acme". */
export function domainLabel(domain: string): string {
  return domain.split('.')[0] ?? '';
}

export function isSameSite(url: string, siteDomain: string): boolean {
  return !!siteDomain && registrableDomain(url) === siteDomain;
}
