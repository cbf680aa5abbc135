/** US addresses in page text: "1723 North Halsted, Chicago, Illinois 60614", "PO Box 1479, Hockessin, DE 19707". */
import { scanAnchors, toAddressLine, type AddressMatch } from './scan.ts';

const STATE_CODES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|GU|VI';
const STATE_NAMES = [
  'Alabama',
  'Alaska',
  'Arizona',
  'Arkansas',
  'California',
  'Colorado',
  'Connecticut',
  'Delaware',
  'District of Columbia',
  'Florida',
  'Georgia',
  'Hawaii',
  'Idaho',
  'Illinois',
  'Indiana',
  'Iowa',
  'Kansas',
  'Kentucky',
  'Louisiana',
  'Maine',
  'Maryland',
  'Massachusetts',
  'Michigan',
  'Minnesota',
  'Mississippi',
  'Missouri',
  'Montana',
  'Nebraska',
  'Nevada',
  'New Hampshire',
  'New Jersey',
  'New Mexico',
  'New York',
  'North Carolina',
  'North Dakota',
  'Ohio',
  'Oklahoma',
  'Oregon',
  'Pennsylvania',
  'Puerto Rico',
  'Rhode Island',
  'South Carolina',
  'South Dakota',
  'Tennessee',
  'Texas',
  'Utah',
  'Vermont',
  'Virginia',
  'Washington',
  'West Virginia',
  'Wisconsin',
  'Wyoming',
].join('|');
const TOWN_STATE = new RegExp(`^(?:\\p{Lu}[\\p{L}.'’-]*\\s+){0,3}\\p{Lu}[\\p{L}.'’-]*,\\s*(?:${STATE_NAMES}|${STATE_CODES})\\.?$`, 'u');

/** A US town and its state and nothing else ("Bar Harbor, Maine", "Austin, TX"): a place, no one's name. */
export function isUsTownAndState(name: string): boolean {
  return TOWN_STATE.test(name.trim());
}

// Dotted and mixed-case codes appear in the wild ("Ma 02631", "D.C.", "Fla.").
const STATE = `(?:${STATE_NAMES}|(?:${STATE_CODES})|[A-Z][a-z](?=\\s+\\d{5})|D\\.\\s?C\\.|[A-Z]\\.[A-Z]\\.|Calif\\.|Fla\\.|Tex\\.|Mass\\.|Penn\\.)`;

const ANCHOR = new RegExp(`\\b${STATE}\\.?[ \\t]*,?\\s*\\d{5}(?:[-\\s]\\d{4})?\\b(?:,?\\s*(?:USA|U\\.S\\.A\\.|United States(?: of America)?|US)\\b\\.?)?`, 'g');

export const US_STREET_START =
  /(?:\b\d{1,6}[A-Za-z]?(?:-\d{1,5})?(?:\s[-–])?\s+(?:[NSEW]\.?\s+|1\/2\s+)?(?:[A-Z0-9][\w'’.-]*|[a-z]+\s+(?:street|st|avenue|ave|road|rd)\b)|\bP\.?\s?O\.?\s*(?:Box|BOX)\b|\bPost Office Box\b|\bOne\s+[A-Z][a-z]+\s+(?:Plaza|Place|Center|Centre|Way|Drive|Street))/;

// A line that only names the office centre the address is in ("Doral Corporate Centre II"): written
// above the street, and part of the address ("Center" is also a USPS street suffix, Publication 28).
const BUILDING_LINE = /^(?:(?:[A-Z][\w'’.&-]*|of|the|and)[ \t]+){1,5}(?:Center|Centre)(?:[ \t]+(?:[IVX]+|\d{1,3}))?$/;

/** Moves the start of an address that begins a line up over a building line right above it. */
function withBuilding(text: string, m: AddressMatch): AddressMatch {
  if (m.start < 2 || text[m.start - 1] !== '\n') return m;
  const lineStart = text.lastIndexOf('\n', m.start - 2) + 1;
  if (!BUILDING_LINE.test(text.slice(lineStart, m.start - 1).trim())) return m;
  return { ...m, start: lineStart, line: toAddressLine(text.slice(lineStart, m.end)) };
}

export function findUsAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: US_STREET_START, maxLines: 3, allowBare: true }).map((found) => {
    const m = withBuilding(text, found);
    // "NM87401" -> "NM 87401": the space gets lost when state and ZIP sit in separate elements.
    return { ...m, line: m.line.replace(/\b([A-Z]{2})(\d{5})\b/g, '$1 $2') };
  });
}

// USPS street suffixes (Publication 28), the common ones and their abbreviations.
const STREET_SUFFIX =
  'Street|St|Road|Rd|Avenue|Ave|Boulevard|Blvd|Drive|Dr|Lane|Ln|Way|Court|Ct|Place|Pl|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Terrace|Ter|Trail|Trl|Pike|Square|Sq|Plaza|Plz|Turnpike|Tpke';

// A street line that stands alone on its line: "1391 Smizer Mill Road", "45 Oak Avenue, Suite 200".
const STREET_LINE = new RegExp(
  String.raw`^[^\S\n]*(\d{1,6}[A-Za-z]?[^\S\n]+(?:[NSEW]\.?[^\S\n]+)?(?:[A-Z0-9][\w'’.-]*[^\S\n]+){0,4}(?:${STREET_SUFFIX})\.?(?:,?[^\S\n]+(?:Suite|Ste\.?|Unit|#)[^\S\n]*[\w-]+)?)[^\S\n]*$`,
  'gm',
);

/** Street lines alone on their line, with no town or postcode beside them. */
export function findUsStreetLines(text: string): AddressMatch[] {
  const out: AddressMatch[] = [];
  for (const m of text.matchAll(STREET_LINE)) {
    const start = m.index + m[0].indexOf(m[1]!);
    out.push({ start, end: start + m[1]!.length, line: toAddressLine(m[1]!) });
  }
  return out;
}
