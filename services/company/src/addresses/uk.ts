/** UK addresses: "221B Baker Street, London NW1 6XE", "Unit 4, Mill Lane, Coventry CV1 2AB, United Kingdom". */
import { scanAnchors, type AddressMatch } from './scan.ts';

// The official postcode grammar (outward + inward code); GIR 0AA is the one odd case.
const POSTCODE = '(?:GIR ?0AA|[A-PR-UWYZ](?:\\d[A-HJKPSTUW\\d]?|[A-HK-Y]\\d[ABEHMNPRVWXY\\d]?)\\s?\\d[ABD-HJLNP-UW-Z]{2})';
// The postcode alone is the anchor: UK pages often put street, town, county and postcode on separate lines.
const ANCHOR = new RegExp(`(?<![\\w-])${POSTCODE}\\b(?:,?\\s*(?:United Kingdom|UK|England|Scotland|Wales|Northern Ireland)\\b)?`, 'g');
const STREET_START =
  /(?:\b(?:Unit|Flat|Suite|Floor|Building|Studio)\s+\w+|\bP\.?\s?O\.?\s*(?:Box|BOX)\b|\b\d{1,4}[A-Za-z]?(?:-\d{1,4})?,?\s+[A-Z][\w'’.-]*|\b[A-Z][\w'’-]+\s+(?:House|Court|Building|Centre|Park|Works|Chambers|Mill|Farm|Hall)\b)/;

export function findUkAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: STREET_START, maxLines: 4, allowBare: false });
}
