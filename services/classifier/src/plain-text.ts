/**
 * Turns snippets that may still hold markup or HTML entities (meta contents written by CMSs often do:
 * "Fish &amp;amp; Chips", "<p>We bake...</p>") into one line of plain text.
 */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…',
  rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', copy: '©', reg: '®', trade: '™', eacute: 'é', egrave: 'è',
  agrave: 'à', aacute: 'á', oacute: 'ó', uacute: 'ú', iacute: 'í', ntilde: 'ñ', uuml: 'ü', ouml: 'ö', auml: 'ä',
  ccedil: 'ç', bull: '•', middot: '·', laquo: '«', raquo: '»', deg: '°', euro: '€', pound: '£',
};

export function decodeEntities(s: string): string {
  // Twice, because double-encoded entities ("&amp;amp;") are common in meta tags.
  let out = s;
  for (let i = 0; i < 2; i++) {
    out = out.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
      if (body[0] === '#') {
        const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      }
      return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
    });
  }
  return out;
}

/** Plain, single-spaced text: tags dropped, entities decoded, control characters removed. */
export function toPlainText(s: string): string {
  return decodeEntities(s.replace(/<[^>]{0,2000}>/g, ' '))
    .replace(/<[^>]*$/, ' ') // a tag cut in half at the end of a truncated text
    .replace(/[\u0000-\u001f\u007f\u00a0\u200b-\u200d\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
