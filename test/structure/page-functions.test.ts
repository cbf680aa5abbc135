/**
 * The renderer's collectors run in the page: `runInPage` sends a collector and its parts (`*_PARTS`)
 * as source text, alone. A name they use from their module (a constant, a helper left out of the
 * parts, an import) is undefined there and throws only when the line that reads it runs, which a
 * test page can miss: a regular expression declared beside `imagesOf` failed 30 of 314 eval pages
 * (2026-11-27) while every test passed. This reads each module's top-level names and fails when the
 * source of a page-sent function mentions one that is not itself sent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { collectDocument, DOCUMENT_PARTS } from '../../services/renderer/src/collect/document.ts';
import { collectElements, ELEMENT_PARTS } from '../../services/renderer/src/collect/elements.ts';
import { collectStyles, STYLE_PARTS } from '../../services/renderer/src/collect/styles.ts';
import { ROOT } from '../support/import-graph.ts';

const SENT: Array<[string, ReadonlyArray<{ name: string; toString(): string }>]> = [
  ['services/renderer/src/collect/document.ts', [collectDocument, ...DOCUMENT_PARTS]],
  ['services/renderer/src/collect/elements.ts', [collectElements, ...ELEMENT_PARTS]],
  ['services/renderer/src/collect/styles.ts', [collectStyles, ...STYLE_PARTS]],
];

/** The names a module declares at its top level for values (types are erased and never reach the page). */
function topLevelValueNames(source: string): string[] {
  const declared = [...source.matchAll(/^(?:export\s+)?(?:const|let|var|function\*?|async\s+function|class)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
  const imported = [...source.matchAll(/^import\s+(?!type\b)\{([^}]*)\}/gm)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && !s.startsWith('type '))
      .map((s) => s.split(/\s+as\s+/).pop()!),
  );
  return [...declared, ...imported];
}

it.each(SENT)('%s: what runs in the page uses no name from its module but the functions sent with it', (path, sent) => {
  const names = new Set(sent.map((f) => f.name));
  const outside = topLevelValueNames(readFileSync(join(ROOT, path), 'utf8')).filter((n) => !names.has(n));
  const used = sent.flatMap((f) =>
    outside.filter((n) => new RegExp(`(?<![\\w$.])${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(f.toString())).map((n) => `${f.name} uses ${n}`),
  );
  expect(used).toEqual([]);
});
