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
