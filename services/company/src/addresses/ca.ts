/** Canadian addresses: "2150 Fir Street, Vancouver, BC V6J 3B5", "… Burlington, Ontario L7L 6C7, Canada". */
import { scanAnchors, type AddressMatch } from './scan.ts';
import { US_STREET_START } from './us.ts';

const PROVINCE =
  '(?:ON|QC|BC|AB|MB|SK|NS|NB|NL|PE|PEI|YT|NT|NU|B\\.C\\.|Ont\\.|Que\\.|Alta\\.|Ontario|Qu[eé]bec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|New Brunswick|Newfoundland(?: and Labrador)?|Prince Edward Island|Yukon|Northwest Territories|Nunavut)';
const POSTAL = '[ABCEGHJ-NPRSTVXY]\\d[ABCEGHJ-NPRSTV-Z]\\s?\\d[ABCEGHJ-NPRSTV-Z]\\d';
// Province then postal code (possibly on the next line, possibly with "Canada" between), or the reverse.
const ANCHOR = new RegExp(
  `\\b(?:${PROVINCE}\\.?(?:,?[ \\t]*Canada)?[ \\t]*,?\\s*${POSTAL}|${POSTAL},?[ \\t]+${PROVINCE}\\.?)(?![\\w])(?:,?\\s*Canada\\b)?`,
  'g',
);

export function findCanadianAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: US_STREET_START, maxLines: 3, allowBare: true });
}
