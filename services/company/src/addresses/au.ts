/** Australian addresses: "Level 5, 123 George St, Sydney NSW 2000". */
import { scanAnchors, type AddressMatch } from './scan.ts';

const STATE =
  '(?:NSW|VIC|Vic|QLD|Qld|WA|SA|TAS|Tas|ACT|NT|New South Wales|Victoria|Queensland|Western Australia|South Australia|Tasmania|Australian Capital Territory|Northern Territory)';
const ANCHOR = new RegExp(`\\b${STATE}\\.?,?[ \\t]*\\d{4}\\b(?:,?\\s*Australia\\b)?`, 'g');
const STREET_START = /(?:\b(?:Level|Suite|Unit|Shop)\s+\d+\w*|\b\d{1,5}[A-Za-z]?(?:[-/]\d{1,5})?\s+[A-Z][\w'’.-]*|\b(?:PO|P\.O\.|GPO|Locked Bag)\s*Box\b)/;

export function findAustralianAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: STREET_START, maxLines: 2, allowBare: false });
}
