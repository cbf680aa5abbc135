/** Dutch addresses: "Keizersgracht 123, 1015 CJ Amsterdam", "Postbus 1234, 3000 AB Rotterdam". */
import { scanAnchors, type AddressMatch } from './scan.ts';

const ANCHOR =
  /\b[1-9]\d{3}[ \t]?(?!SA|SD|SS)[A-Z]{2}[ \t]+[A-Z][a-z'’-]+(?:[ \t-](?:aan de|aan den|[A-Z][a-z'’-]+))*(?:,?\s*(?:Nederland|The Netherlands|Netherlands)\b)?/g;
const STREET_START =
  /(?:\b(?:Postbus)\s+\d+|[A-Z][a-z'’.-]*(?:\s+(?:[a-z]+|[A-Z][a-z'’.-]*)){0,3}?(?:straat|gracht|weg|laan|plein|kade|singel|dijk|park|hof|markt|steeg|dreef|baan|plantsoen|\s+[A-Z][a-z]+)\s+\d{1,5}(?:\s?[-]?\s?[A-Za-z]{1,2}\b|\s?-\s?\d+)?)/;

export function findDutchAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: STREET_START, maxLines: 2, allowBare: false });
}
