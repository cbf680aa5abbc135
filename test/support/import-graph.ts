/**
 * The import graph of the TypeScript sources, read with regular expressions (static `import`/`export
 * ... from`, side-effect imports and `import('...')`), for the structure tests. Relative specifiers and
 * `@enrich/shared/*` resolve to files; everything else is kept as a bare package name.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const SHARED_EXPORTS = JSON.parse(readFileSync(join(ROOT, 'shared/package.json'), 'utf8')).exports as Record<string, string>;
const SPECIFIER = [
  /(?:^|[\n;])\s*(?:import|export)\s[^;'"]*?\sfrom\s*['"]([^'"]+)['"]/g,
  /(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** Module specifiers a file names, comments left out. */
export function specifiersOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return SPECIFIER.flatMap((re) => [...code.matchAll(re)].map((m) => m[1]!));
}

export type Target = { file: string } | { pkg: string };

/** A specifier as a file (absolute path) or a package name. */
export function resolveSpecifier(from: string, spec: string): Target {
  if (spec.startsWith('.')) return { file: resolve(dirname(from), spec) };
  const shared = /^@enrich\/shared(\/.*)?$/.exec(spec);
  if (shared) {
    const target = SHARED_EXPORTS[`.${shared[1] ?? ''}`];
    if (target) return { file: resolve(ROOT, 'shared', target) };
  }
  const parts = spec.split('/');
  return { pkg: spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]! };
}

export function importsOf(file: string): Target[] {
  return specifiersOf(readFileSync(file, 'utf8')).map((spec) => resolveSpecifier(file, spec));
}

/** Every `.ts` file under `dir` (relative to the root), recursively. */
export function tsFilesUnder(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !join(e.parentPath, e.name).includes('node_modules'))
    .map((e) => join(e.parentPath, e.name));
}

/** A path relative to the repository root, for messages. */
export function rel(file: string): string {
  return relative(ROOT, file);
}
