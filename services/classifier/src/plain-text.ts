/**
 * Turns snippets that may still hold markup or HTML entities (meta contents written by CMSs often do:
 * "Fish &amp;amp; Chips", "<p>We bake...</p>") into one line of plain text. Entities are decoded by
 * the shared decoder, twice, since double-encoded meta contents are common.
 */
import { decodeEntities } from '@enrich/shared/page';

/** Plain, single-spaced text: tags dropped, entities decoded, control characters removed. */
export function toPlainText(s: string): string {
  return decodeEntities(s.replace(/<[^>]{0,2000}>/g, ' '), { doubleEncoded: true })
    .replace(/<[^>]*$/, ' ') // a tag cut in half at the end of a truncated text
    .replace(/[\u0000-\u001f\u007f\u00a0\u200b-\u200d\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
