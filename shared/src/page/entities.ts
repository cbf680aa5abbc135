/**
 * The one HTML entity decoder of the analyzers: numeric references (`&#39;`, `&#x2F;`) and the named
 * entities page text and meta contents actually carry (the union of the tables company and classifier
 * kept before; not the full HTML5 table, whose 2,000 names these texts never use).
 *
 * A name is looked up as written, then lower-cased (`&AMP;`, `&Eacute;` read as `&amp;`, `&eacute;`
 * when the exact name is not in the table). An unknown name, or a numeric reference outside
 * U+0001-U+10FFFF, is left as written (so is `&constructor;`: only the table's own names count).
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  commat: '@',
  period: '.',
  ndash: '–',
  mdash: '—',
  middot: '·',
  bull: '•',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  laquo: '«',
  raquo: '»',
  deg: '°',
  euro: '€',
  pound: '£',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  agrave: 'à',
  aacute: 'á',
  oacute: 'ó',
  ocirc: 'ô',
  uacute: 'ú',
  iacute: 'í',
  icirc: 'î',
  ntilde: 'ñ',
  ccedil: 'ç',
  aring: 'å',
  oslash: 'ø',
  aelig: 'æ',
  szlig: 'ß',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
};

export interface DecodeOptions {
  /**
   * Also decode a reference without its closing `;` (`&amp`, `&#39`) when the letters or digits after
   * `&` are exactly a reference, as browsers do for legacy markup. Default false.
   */
  semicolonOptional?: boolean;
  /** Decode a second time, for double-encoded text (`&amp;amp;`), common in CMS meta contents. Default false. */
  doubleEncoded?: boolean;
}

const WITH_SEMICOLON = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
const SEMICOLON_OPTIONAL = /&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi;

function decodeReference(whole: string, body: string): string {
  if (body[0] === '#') {
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
  }
  const named = Object.hasOwn(NAMED_ENTITIES, body) ? body : body.toLowerCase();
  return Object.hasOwn(NAMED_ENTITIES, named) ? NAMED_ENTITIES[named]! : whole;
}

export function decodeEntities(s: string, options: DecodeOptions = {}): string {
  if (!s.includes('&')) return s;
  const pattern = options.semicolonOptional ? SEMICOLON_OPTIONAL : WITH_SEMICOLON;
  const once = s.replace(pattern, decodeReference);
  return options.doubleEncoded && once.includes('&') ? once.replace(pattern, decodeReference) : once;
}
