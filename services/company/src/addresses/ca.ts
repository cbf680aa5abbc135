/** Canadian addresses: "2150 Fir Street, Vancouver, BC V6J 3B5", "… Burlington, Ontario L7L 6C7, Canada". */
import { scanAnchors, type AddressMatch } from './scan.ts';
import { US_STREET_START } from './us.ts';

const PROVINCE =
  '(?:ON|QC|BC|AB|MB|SK|NS|NB|NL|PE|PEI|YT|NT|NU|B\\.C\\.|Ont\\.|Que\\.|Alta\\.|Ontario|Qu[eé]bec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|New Brunswick|Newfoundland(?: and Labrador)?|Prince Edward Island|Yukon|Northwest Territories|Nunavut)';
const POSTAL = '[ABCEGHJ-NPRSTVXY]\\d[ABCEGHJ-NPRSTV-Z]\\s?\\d[ABCEGHJ-NPRSTV-Z]\\d';
// Province then postal code (possibly on the next line, possibly with "Canada" between), or the reverse;
// the province in brackets, as Quebec writes it ("Montréal (Québec) H3B 4W8").
const ANCHOR = new RegExp(
  `\\b(?:${PROVINCE}\\)?\\.?(?:,?[ \\t]*Canada)?[ \\t]*,?\\s*${POSTAL}|${POSTAL},?[ \\t]+${PROVINCE}\\.?)(?![\\w])(?:,?\\s*Canada\\b)?`,
  'g',
);

// Quebec writes the number, a comma and a French street type: "1250, boul. René-Lévesque Ouest".
const STREET_START = new RegExp(
  `${US_STREET_START.source}|\\b\\d{1,6}(?:-\\d{1,5})?,?\\s+(?:boul\\.|boulevard|rue|av\\.|avenue|ch\\.|chemin|route|rang|place|côte|montée)(?![\\p{L}])`,
  'u',
);

export function findCanadianAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: STREET_START, maxLines: 3, allowBare: true });
}
