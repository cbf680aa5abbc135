/**
 * The shared machinery of the text address scanners. Each country module finds an anchor that is
 * hard to mistake (a region plus a postal code, a postcode plus a town) and this module walks back
 * from it to where the street begins, across the line breaks that split addresses in page text.
 */
import { normalizeLine } from '../text.ts';

export interface AddressMatch {
  /** Offset of the first character of the address in the scanned text. */
  start: number;
  end: number;
  line: string;
}

// A line that is evidently something else: a phone, an email, a label, a long sentence, a review
// widget's rating beside the address ("★★★★★ 4.9 from 612 Google reviews": its number is no house number).
const NOT_ADDRESS =
  /(?:@|[★☆]|\b(?:tel|ph|phone|fax|call|email|e-mail|hours|open|mon|monday|reviews?)\b|https?:|www\.|\(\d{3}\)\s*\d{3}|\d{3}[-.]\d{3}[-.]\d{4}|\+\d{1,3}[\s\d]{6,})/i;
const LABEL =
  /^(?:(?:our |postal |mailing |street |office |head office |registered office )?address|location|visit us|find us|contact(?: us)?|headquarters|hq|anschrift|adresse|adres|sitz)\s*[:\-–]?\s*/i;

export interface BackwardOptions {
  /** Where the street starts inside a candidate segment; the earliest match wins. */
  streetStart: RegExp;
  /** How many earlier lines may belong to the address. */
  maxLines: number;
  /** Accept an address without a recognised street start (town + postcode only). */
  allowBare: boolean;
}

/**
 * The start offset of the address that ends in an anchor beginning at `anchorStart`, or -1.
 * Looks at the same line first, then up to `maxLines` earlier short lines.
 */
export function findAddressStart(text: string, anchorStart: number, floor: number, opts: BackwardOptions): number {
  const lineStart = clauseStart(text, Math.max(floor, text.lastIndexOf('\n', anchorStart - 1) + 1), anchorStart);
  const segments: Array<{ start: number; end: number }> = [{ start: lineStart, end: anchorStart }];
  let cursor = lineStart - 1;
  for (let i = 0; i < opts.maxLines && cursor > floor; i++) {
    const s = Math.max(floor, text.lastIndexOf('\n', cursor - 1) + 1);
    const seg = text.slice(s, cursor).trim();
    if (!seg || seg.length > 80 || NOT_ADDRESS.test(seg) || /[.!?]\s+[a-z]/.test(seg)) break;
    segments.push({ start: s, end: cursor });
    cursor = s - 1;
  }
  // Earliest street start across the collected segments, nearest-line-last so a street on the line
  // above beats a number that is part of the town line.
  const starts: number[] = [];
  for (const seg of segments) {
    const re = new RegExp(opts.streetStart.source, opts.streetStart.flags.replace('g', '') + 'g');
    for (const m of text.slice(seg.start, seg.end).matchAll(re)) starts.push(seg.start + m.index);
  }
  starts.sort((a, b) => a - b);
  // The earliest start wins, except a year ("© 2009 Aiyara Thai | … 5 Catoctin Circle") or a date ("on 5 March
  // 2027, at the Meridian Exhibition Centre, 1 Dockside Way") when a real one follows.
  const best = starts.find((i, k) => k === starts.length - 1 || !YEAR_OR_DATE.test(text.slice(i, i + 40))) ?? -1;
  if (best >= 0) {
    // Keep only the tail of a long same-line run: an address line rarely exceeds 120 characters.
    return anchorStart - best > 160 ? -1 : best;
  }
  if (!opts.allowBare) return -1;
  // Town only: the words right before the anchor on its own line.
  const head = text.slice(lineStart, anchorStart);
  const town = /((?:[A-Z][\w'’.-]*\s?){1,4})[,\s]*$/.exec(head);
  return town ? lineStart + (town.index ?? 0) : -1;
}

const YEAR_OR_DATE =
  /^(?:(?:19|20)\d\d\b|\d{1,2}(?:st|nd|rd|th)?\s+(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b)/i;

// The end of a sentence or a label ("Registered Office: "), but not the dot of "St." or "P.O.".
const CLAUSE_BREAK =
  /(?<!\b(?:[A-Za-z]|St|Ave|Rd|Dr|No|Nr|Blvd|Inc|Ltd|Co|Mt|Ft|Ste|Hwy|Pkwy|Ln|Ct|Bldg|Fl|Apt|Str|Av|Al))[.!?;]\s+(?=[A-Z0-9])|:\s*|\s[|•·]\s|©/g;

/** Where the clause that holds the anchor starts on its line: a long line is mostly other prose. */
function clauseStart(text: string, lineStart: number, anchorStart: number): number {
  const from = Math.max(lineStart, anchorStart - 150);
  let start = from;
  const segment = text.slice(from, anchorStart);
  for (const m of segment.matchAll(CLAUSE_BREAK)) start = from + m.index + m[0].length;
  return start;
}

/** Turns a stretch of page text into one address line: labels gone, lines joined by commas. */
export function toAddressLine(raw: string): string {
  const lines = raw
    .split(/\n/)
    .map((l) => l.replace(LABEL, '').trim())
    .filter(Boolean);
  // A footer's separators between the parts ("Musterstraße 12 · 10115 Berlin", "12 rue de la Paix – 75002 Paris") are commas.
  return normalizeLine(lines.join(', '))
    .replace(/\s+[·•|–—]\s+/g, ', ')
    .replace(/,(?:\s*,)+/g, ',')
    .replace(/,(?=\S)/g, ', ');
}

/** Runs an anchor regex over the text and builds a match per anchor. */
export function scanAnchors(text: string, anchor: RegExp, opts: BackwardOptions): AddressMatch[] {
  const out: AddressMatch[] = [];
  let floor = 0;
  const re = new RegExp(anchor.source, anchor.flags.includes('g') ? anchor.flags : anchor.flags + 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    const start = findAddressStart(text, m.index, floor, opts);
    if (start >= 0) {
      const line = toAddressLine(text.slice(start, end));
      if (line.length >= 8) out.push({ start, end, line });
      floor = end;
    }
  }
  return out;
}
