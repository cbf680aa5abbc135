/** US addresses in page text: "1723 North Halsted, Chicago, Illinois 60614", "PO Box 1479, Hockessin, DE 19707". */
import { scanAnchors, type AddressMatch } from './scan.ts';

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
// Dotted and mixed-case codes appear in the wild ("Ma 02631", "D.C.", "Fla.").
const STATE = `(?:${STATE_NAMES}|(?:${STATE_CODES})|[A-Z][a-z](?=\\s+\\d{5})|D\\.\\s?C\\.|[A-Z]\\.[A-Z]\\.|Calif\\.|Fla\\.|Tex\\.|Mass\\.|Penn\\.)`;

const ANCHOR = new RegExp(`\\b${STATE}\\.?[ \\t]*,?\\s*\\d{5}(?:[-\\s]\\d{4})?\\b(?:,?\\s*(?:USA|U\\.S\\.A\\.|United States(?: of America)?|US)\\b\\.?)?`, 'g');

export const US_STREET_START =
  /(?:\b\d{1,6}[A-Za-z]?(?:-\d{1,5})?(?:\s[-–])?\s+(?:[NSEW]\.?\s+|1\/2\s+)?(?:[A-Z0-9][\w'’.-]*|[a-z]+\s+(?:street|st|avenue|ave|road|rd)\b)|\bP\.?\s?O\.?\s*(?:Box|BOX)\b|\bPost Office Box\b|\bOne\s+[A-Z][a-z]+\s+(?:Plaza|Place|Center|Centre|Way|Drive|Street))/;

export function findUsAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: US_STREET_START, maxLines: 3, allowBare: true }).map((m) => ({
    ...m,
    // "NM87401" -> "NM 87401": the space gets lost when state and ZIP sit in separate elements.
    line: m.line.replace(/\b([A-Z]{2})(\d{5})\b/g, '$1 $2'),
  }));
}
