/**
 * Postal addresses written in page text, in the formats of the US, Canada, the UK, Germany, France,
 * the Netherlands, Australia, the rest of Europe (eu.ts), New Zealand, South Africa, India, Japan and
 * Ireland (world.ts), and the merging of addresses from every source.
 */
import { compact } from '@enrich/shared/page';
import { toAddressLine, type AddressMatch } from './scan.ts';
import { findUsAddresses, findUsStreetLines } from './us.ts';
import { findCanadianAddresses } from './ca.ts';
import { findUkAddresses } from './uk.ts';
import { findGermanAddresses } from './de.ts';
import { findFrenchAddresses } from './fr.ts';
import { findDutchAddresses } from './nl.ts';
import { findAustralianAddresses } from './au.ts';
import { findEuropeanAddresses } from './eu.ts';
import {
  findBrazilianAddresses,
  findHongKongAddresses,
  findIndianAddresses,
  findIrishAddresses,
  findJapaneseAddresses,
  findNewZealandAddresses,
  findSouthAfricanAddresses,
} from './world.ts';

export { formatPostalAddress } from './structured.ts';
export { isUsTownAndState } from './us.ts';

const SCANNERS = [
  findUsAddresses,
  findCanadianAddresses,
  findUkAddresses,
  findGermanAddresses,
  findFrenchAddresses,
  findDutchAddresses,
  findAustralianAddresses,
  findEuropeanAddresses,
  findNewZealandAddresses,
  findSouthAfricanAddresses,
  findIndianAddresses,
  findJapaneseAddresses,
  findIrishAddresses,
  findBrazilianAddresses,
  findHongKongAddresses,
];

// A legal notice names the site's host and web agency with their addresses (French law requires the
// host's: "Hébergement : OVH SAS, 2 rue Kellermann, 59100 Roubaix"); those addresses are not the owner's.
const HOST_OR_AGENCY =
  /(?:h[ée]bergement|h[ée]bergeur|h[ée]berg[ée]\s+par|\bhosting\b|\bhosted\s+by\b|\bweb\s?host\b|\bhost\s*:|webhosting|gehostet|\bhoster\b|alojamiento|alojado\s+por|ospitato\s+(?:da|presso)|\bhostingprovider\b|webdesign\s*:|r[ée]alisation\s*:|conception\s*:|realisierung\s*:|gestaltung\s*:)/i;

const AGENCY_CREDIT_BEFORE =
  /\b(?:(?:web\s?site|site|web\s+design|webdesign)(?:\s+(?:design(?:ed)?|develop(?:ment|ed)|built|created|made))?(?:\s*(?:&|and)\s*(?:design(?:ed)?|develop(?:ment|ed)))?|design(?:ed)?\s*(?:&|and)\s*develop(?:ment|ed))\s+by\s+[^·|•\n]{1,50}?\s*[·|•,–-]?\s*$/i;

/** Whether the paragraph an address sits in, up to it, introduces the host or the web agency. */
function introducedAsHostOrAgency(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 160), start);
  const paragraph = before.split(/\n\s*\n/).pop()!;
  // The address's own line and the line above it.
  if (HOST_OR_AGENCY.test(paragraph.split('\n').slice(-2).join('\n'))) return true;
  // A web agency's credit and its name right before the address ("Website design & development by
  // Pixelmoor Studio · 2208 E 6th St", "Site by Kookaburra Digital · 21 Baxter St").
  return AGENCY_CREDIT_BEFORE.test(paragraph.split('\n').pop()!);
}

// Another organisation named in the sentence that gives an address: a complaints body or regulator the
// page refers customers to, an event's venue, a partner, supplier or carrier ("you may refer it to the
// Legal Ombudsman, PO Box 6167, Slough", "Venue: Moscone Center West, 800 Howard Street", "collected
// from BlueLine Express Hub, No. 14, …"), in English and the languages of the other scanners.
const THIRD_PARTY =
  /\b(?:ombudsman|regulator|authority|commission|complaints?|dispute|tribunal|venue|booth|festival|expo|exhibition|exhibiting|stand\s+[A-Z]?\d+|conference|trade\s+(?:show|fair)|partner|supplier|pick-?up|depot|hub|courier|carrier|revenue\s+agency|department\s+of|hospital|landlord|registered\s+agent|franchis(?:or|ing)|franchise\s+(?:enquiries|inquiries|opportunities|information|support)|(?:centre|center|building|property|estate|arcade|mall)\s+management|(?:regulated|overseen|supervised|licensed|accredited|certified)\s+by|licensing\s+board|their\s+(?:[\p{L}-]+\s+){0,3}?(?:office|offices|address|premises|headquarters|head\s+office|centre|center|depot|warehouse|store|shop|location))\b|(?<!\p{L})(?:médiateur|litige|reclamaci[oó]n|consumo|consommat\p{L}*|verbraucher\p{L}*|klacht|geschillen\p{L}*|schlichtung\p{L}*|beziehen\s+wir|lieferant\p{L}*|messe|salon)(?!\p{L})/iu;
// "Write to us at", "our office", "visit our shop": the organisation's own address, whatever else the sentence says.
const OWN = /\b(?:us|our|we)\b(?![^.;]*\b(?:may|can)\s+(?:refer|contact|lodge|write|complain))/i;

// An address the organisation has left: "our Denver team moved out of 1755 Blake Street", "formerly at".
const PREVIOUS =
  /\b(?:moved\s+(?:out\s+of|away\s+from|from)|(?:we|team|office|staff)\s+(?:have\s+|has\s+)?left|(?:office|shop|studio|store|clinic|team)\s+was\s+(?:located\s+)?(?:at|in)|relocated\s+from|formerly\s+(?:at|in|located)|previously\s+(?:at|in|located)|(?:old|previous|former)\s+(?:[\p{L}-]+\s+)?(?:address|office|premises|shop|store|studio|showroom|location))\b/iu;
// A name right before the address, joined by a comma ("… to HealthFirst Mutual, GPO Box 9120, Sydney",
// "our data protection officer is DataSafe Consulting GmbH, Hansaring 12"): capitalised words, a few
// joining words between them.
// Also with a legal form after a comma ("… is Treasure State Registered Agents, Inc., 101 N Last Chance
// Gulch"), or the address in brackets after the name ("our friends at Green Mountain Evaporator Works (55
// Depot St, …)").
const NAME_BEFORE =
  /(\p{Lu}[\p{L}\p{M}\d'’&.-]*(?:\s+(?:(?:of|for|and|&|the|de|du|des|der|di|la|le)\s+)?\p{Lu}[\p{L}\p{M}\d'’&.-]*){1,6})(?:,\s*(?:Inc|LLC|L\.L\.C|Ltd|Limited|Corp|Co|PLC|LLP|LP|GmbH|Pty\s+Ltd)\.?)?(?:,|\s*\()\s*$/u;
// Another organisation's place by its possessive: "For reference, Prairieline's head office is at …".
const POSSESSED_PLACE =
  /(\p{Lu}[\p{L}\p{M}\d&-]*(?:\s+\p{Lu}[\p{L}\p{M}\d&-]*){0,4})['’]s\s+(?:[\p{L}-]+\s+)?(?:office|offices|headquarters|head\s+office|warehouse|factory|plant|depot|store|showroom|premises)\s+(?:is\s+)?(?:(?:located\s+)?(?:at|in)\b|:)\s*$/u;

/**
 * Whether the address sits inside a sentence (prose before it on its line) that gives it as another
 * organisation's: a sentence naming another organisation's role (the regulator's, the venue's, the
 * partner's address), one that says the organisation moved from it, or one that writes another
 * organisation's name right before it (a name that shares no word with the site's domain label, when
 * that is known). An address on its own lines, in a block or after a label, is never judged by this.
 */
function givenForAnotherOrganisation(text: string, start: number, siteLabel?: string): boolean {
  const line = text.slice(Math.max(0, text.lastIndexOf('\n', start - 1) + 1, start - 200), start);
  if ((line.match(/\p{Ll}{2,}/gu) ?? []).length < 4) return false;
  const clause = line.split(/[.!?](?:\s|$)/).pop()!;
  if (PREVIOUS.test(clause)) return true;
  const named = siteLabel ? (NAME_BEFORE.exec(clause)?.[1] ?? POSSESSED_PLACE.exec(clause)?.[1]) : undefined;
  if (named && !OWN_PLACE.test(named) && !sharesWordWith(named, siteLabel!)) return true;
  return THIRD_PARTY.test(clause) && !OWN.test(clause.slice(-60));
}

/**
 * Words in title case that name the organisation's own place, not another organisation ("Our Head
 * Office, 12 Main Street"); not a business's kind ("Cedar & Loon Workshop", "… Studio" are names).
 */
const OWN_PLACE = /^(?:Our|My|Your|We)\b|\b(?:Office|Offices|Headquarters|HQ|Branch|Location|Address|Campus)$/;

/** A form's or a template's sample address ("123 Main St, Anytown, PA 12345", "123 Any Street, Yourtown"). */
const PLACEHOLDER_ADDRESS = /\b(?:any\s?(?:town|ville|city)|your\s?(?:town|city)|(?:any|your)\s+street)\b/i;

/** Whether a word of four letters or more of the name is in the site's domain label ("Harwick Lowe LLP", harwicklowe). */
function sharesWordWith(name: string, siteLabel: string): boolean {
  const label = compact(siteLabel);
  return (name.match(/[\p{L}\d]{4,}/gu) ?? []).some((w) => label.includes(compact(w)));
}

/**
 * Addresses found in free text, in document order; overlapping finds keep the longest; not a host's or
 * an agency's, nor another organisation's the prose gives (with `siteLabel`, the site's domain label,
 * also one written right after another organisation's name).
 */
export function extractTextAddresses(text: string, siteLabel?: string): string[] {
  const raw: AddressMatch[] = SCANNERS.flatMap((scan) => scan(text));
  // A scanner that walked back over another country's complete address (a Canadian line above a UK
  // postcode) starts after that address instead.
  const found = raw.map((m) => {
    const inner = raw.filter((o) => o !== m && o.start >= m.start && o.end < m.end && o.end > m.start);
    if (!inner.length) return m;
    const start = Math.max(...inner.map((o) => o.end));
    return { start, end: m.end, line: toAddressLine(text.slice(start, m.end).replace(/^[\s,;.]+/, '')) };
  });
  found.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: AddressMatch[] = [];
  for (const m of found) {
    const last = kept[kept.length - 1];
    if (last && m.start < last.end) {
      if (m.end - m.start > last.end - last.start) kept[kept.length - 1] = m;
      continue;
    }
    kept.push(m);
  }
  // A street line alone, with no town or postcode near it: only where it is no part of a find.
  const near = (m: AddressMatch): boolean => raw.some((o) => o.start < m.end + 200 && o.end > m.start - 200);
  for (const m of findUsStreetLines(text)) if (!near(m)) kept.push(m);
  kept.sort((a, b) => a.start - b.start);
  return kept
    .filter((m) => !introducedAsHostOrAgency(text, m.start) && !givenForAnotherOrganisation(text, m.start, siteLabel) && !PLACEHOLDER_ADDRESS.test(m.line))
    .map((m) => m.line);
}

// Street-type words people write both ways; folded before comparing two addresses.
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [/\bstreet\b/g, 'st'],
  [/\bavenue\b/g, 'ave'],
  [/\broad\b/g, 'rd'],
  [/\bdrive\b/g, 'dr'],
  [/\bboulevard\b/g, 'blvd'],
  [/\bsuite\b/g, 'ste'],
  [/\blane\b/g, 'ln'],
  [/\bplace\b/g, 'pl'],
  [/\bcourt\b/g, 'ct'],
  [/\bparkway\b/g, 'pkwy'],
  [/\bhighway\b/g, 'hwy'],
  [/\bnorth\b/g, 'n'],
  [/\bsouth\b/g, 's'],
  [/\beast\b/g, 'e'],
  [/\bwest\b/g, 'w'],
  // Also at the end of a compound ("Musterstraße" and "Musterstr." are one street); ß is no \w, so no \b.
  [/stra(?:ss|ß)e(?!\p{L})/gu, 'str'],
  [/\b(?:usa|united states(?: of america)?|canada|united kingdom|uk|deutschland|germany|france|nederland|netherlands|australia)\b/g, ''],
  [/\bp\.?\s?o\.?\s?box\b/g, 'pobox'],
];

/** The comparison key of an address: case, punctuation, street-type spelling and country ignored. */
export function addressKey(line: string): string {
  let s = line.toLowerCase().replace(/\./g, ' ');
  for (const [re, to] of ABBREVIATIONS) s = s.replace(re, to);
  return compact(s);
}

/** Merges duplicates: equal keys, or one address contained in a longer one (the longer is kept). */
export function mergeAddresses(lines: readonly string[]): string[] {
  const out: Array<{ line: string; key: string }> = [];
  for (const line of lines) {
    const key = addressKey(line);
    if (key.length < 6) continue;
    const i = out.findIndex((o) => o.key.includes(key) || key.includes(o.key));
    if (i < 0) out.push({ line, key });
    else if (key.length > out[i]!.key.length) out[i] = { line, key };
  }
  return out.map((o) => o.line);
}
