/** Text clean-up shared by the extractors: whitespace folding after entity decoding (the shared decoder's). */
import { decodeEntities } from '@enrich/shared/page';

/** How company text is decoded: references without their `;` too (`&amp`), as browsers read legacy markup. */
export const ENTITY_OPTIONS = { semicolonOptional: true } as const;

/**
 * One line: no markup remnants, no doubled spaces, no dangling separators. Not the shared
 * toPlainText (@enrich/shared/page): this one decodes entities before it drops tags, turns line
 * breaks into ", " and trims separators at the ends, which is what name and address lines need.
 */
export function normalizeLine(s: string): string {
  return decodeEntities(s, ENTITY_OPTIONS)
    .replace(/<[^>]*>/g, ' ')
    .replace(/[\u00a0\u2000-\u200b\u202f\u205f\u3000]/g, ' ')
    .replace(/\s*\n\s*/g, ', ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;])/g, '$1')
    .replace(/([,;])(?:\s*[,;])+/g, '$1')
    .replace(/^[\s,;|•·-]+|[\s,;|•·-]+$/g, '')
    .trim();
}

/**
 * The text without the lines that repeat the page's title word for word (case and spacing aside), when
 * the title has three words or more: the title shown again (a heading that copies it, an overlay that
 * prints it) is no further use of the names in it, and counting it twice let a title's long spelling
 * ("Acme Widgets Springfield Plumbing") outweigh the name the page writes ("Acme Widgets").
 */
export function withoutTitleLines(text: string, title: string): string {
  const fold = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const t = fold(title);
  if (t.split(' ').length < 3) return text;
  return text
    .split('\n')
    .filter((line) => fold(line) !== t)
    .join('\n');
}
