/** French addresses: "12 rue de la Paix, 75002 Paris", "5 bis avenue Foch 69006 Lyon Cedex". */
import { scanAnchors, type AddressMatch } from './scan.ts';

const ANCHOR =
  /\b\d{5}[ \t]+[A-ZÉÈ][A-Za-zÀ-ÿ'’-]+(?:[ \t-][A-ZÀ-Ýa-zà-ÿ'’-]+){0,3}?(?:\s+Cedex(?:\s+\d{1,2})?)?(?=\s*(?:,|\n|$|France\b|\.|\s{2}|Tél|Tel))(?:,?\s*France\b)?/g;
const STREET_START =
  /\b\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?:rue|avenue|av\.|boulevard|bd|bld|place|pl\.|chemin|allée|allee|impasse|quai|route|cours|square|passage|voie|rond-point|parvis|esplanade|faubourg|zone|za|zi|zac)\b|\b(?:BP|CS)\s+\d+/i;

export function findFrenchAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: STREET_START, maxLines: 2, allowBare: false });
}
