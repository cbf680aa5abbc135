/**
 * Turns snippets that may still hold markup or HTML entities (meta contents written by CMSs often do:
 * "Fish &amp;amp; Chips", "<p>We bake...</p>") into one line of plain text. Entities are decoded by
 * the shared decoder, twice, since double-encoded meta contents are common.
 *
 * The classifier reads all its text through this. Company's `normalizeLine` (services/company/src/text.ts)
 * is deliberately not this: it shapes one name or address line (entities decoded before tags are
 * dropped, line breaks turned into ", ", separators trimmed at the ends), and reading company text
 * through toPlainText would change what it extracts.
 */
import { decodeEntities } from './entities.ts';

/** Plain, single-spaced text: tags dropped, entities decoded, control characters removed. */
export function toPlainText(s: string): string {
  return decodeEntities(s.replace(/<[^>]{0,2000}>/g, ' '), { doubleEncoded: true })
    .replace(/<[^>]*$/, ' ') // a tag cut in half at the end of a truncated text
    .replace(/[\u0000-\u001f\u007f\u00a0\u200b-\u200d\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
