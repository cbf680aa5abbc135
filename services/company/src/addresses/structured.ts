/** One address line from schema.org PostalAddress fields, in the order the country writes it. */
import type { PostalAddressFields } from '../structured-types.ts';
import { normalizeLine } from '../text.ts';

// Countries that write the postal code before the town ("10115 Berlin").
const POSTCODE_FIRST = new Set([
  'de',
  'deu',
  'germany',
  'deutschland',
  'fr',
  'fra',
  'france',
  'nl',
  'nld',
  'netherlands',
  'nederland',
  'the netherlands',
  'at',
  'austria',
  'österreich',
  'ch',
  'switzerland',
  'schweiz',
  'suisse',
  'be',
  'belgium',
  'belgië',
  'belgique',
  'es',
  'spain',
  'españa',
  'it',
  'italy',
  'italia',
  'dk',
  'denmark',
  'se',
  'sweden',
  'no',
  'norway',
  'fi',
  'finland',
  'pl',
  'poland',
  'pt',
  'portugal',
  'lu',
  'luxembourg',
  'cz',
  'czech republic',
]);
const GERMAN_LIKE_POSTCODE = /^(?:[A-Z]{1,2}-)?\d{4,5}$/;

export function formatPostalAddress(a: PostalAddressFields): string {
  const country = a.addressCountry.trim();
  const street = [a.streetAddress, a.postOfficeBoxNumber && !/box/i.test(a.postOfficeBoxNumber) ? `PO Box ${a.postOfficeBoxNumber}` : a.postOfficeBoxNumber]
    .filter(Boolean)
    .join(', ');
  const postcodeFirst = POSTCODE_FIRST.has(country.toLowerCase()) || (!country && GERMAN_LIKE_POSTCODE.test(a.postalCode) && !a.addressRegion);
  const parts: string[] = [street];
  if (postcodeFirst) {
    parts.push([a.postalCode, a.addressLocality].filter(Boolean).join(' '));
    if (a.addressRegion) parts.push(a.addressRegion);
  } else {
    parts.push(a.addressLocality);
    parts.push([a.addressRegion, a.postalCode].filter(Boolean).join(' '));
  }
  // A country that is only a code the reader already knows from the rest adds noise, but a full name is kept.
  if (country && country.length > 3) parts.push(country);
  else if (country && !/^(?:US|USA)$/i.test(country)) parts.push(country.toUpperCase());
  // Fields sometimes repeat each other (the street line already holds the town): drop exact repeats.
  const seen = new Set<string>();
  const kept = parts
    .map((p) => normalizeLine(p))
    .filter((p) => {
      const k = p.toLowerCase();
      if (!p || seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  return normalizeLine(kept.join(', '));
}
