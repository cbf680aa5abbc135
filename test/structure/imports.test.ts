/**
 * Three rules on the import graph: no runtime module reaches vitest or test support (each service's
 * entry points are walked through relative and `@enrich/shared` imports, type imports included), no
 * file in services/*\/src or shared/src imports vitest unless it is a test, and no import cycle there.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, rel, ROOT, specifiersOf, tsFilesUnder } from '../support/import-graph.ts';

const SERVICES = readdirSync(join(ROOT, 'services')).filter((s) => existsSync(join(ROOT, 'services', s, 'src/main.ts')));
const ENTRY_POINTS = [...SERVICES.map((s) => `services/${s}/src/main.ts`), 'services/edge/src/keys-cli.ts'];

function isTestCode(file: string): boolean {
  const r = rel(file);
  return r.startsWith('test/') || /\.test(-support)?\.ts$/.test(r) || r.includes('/test-support/');
}

/** Files reachable from `entry`, each with the file that imported it first. */
function reachable(entry: string): Map<string, string | null> {
  const parent = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  for (let file = queue.shift(); file; file = queue.shift()) {
    for (const t of importsOf(file)) {
      if ('file' in t && !parent.has(t.file)) {
        parent.set(t.file, file);
        queue.push(t.file);
      }
    }
  }
  return parent;
}

function chain(parent: Map<string, string | null>, file: string): string {
  const path: string[] = [];
  for (let f: string | null | undefined = file; f; f = parent.get(f)) path.unshift(rel(f));
  return path.join(' -> ');
}

/** The import cycles in the graph, one per edge that closes a loop, each as a list of files. */
export function findCycles(edges: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('import graph', () => {
  it('reads every form of import', () => {
    const source = [
      "import { a,\n  b } from './a.ts';",
      "import type { T } from '../t.ts';",
      "export { c } from './c.ts';",
      "import './side.ts';",
      "const m = await import('./lazy.ts');",
      "/* import { x } from './commented.ts'; */",
      "// import { y } from './also-commented.ts';",
    ].join('\n');
    expect(specifiersOf(source)).toEqual(['./a.ts', '../t.ts', './c.ts', './side.ts', './lazy.ts']);
  });

  for (const entry of ENTRY_POINTS) {
    it(`${entry} reaches neither vitest nor test support`, () => {
      const parent = reachable(join(ROOT, entry));
      // The walk must really follow imports, or this test could not fail.
      expect([...parent.keys()].some((f) => rel(f).startsWith('shared/src/'))).toBe(true);
      const problems: string[] = [];
      for (const file of parent.keys()) {
        if (isTestCode(file)) problems.push(`test code: ${chain(parent, file)}`);
        for (const t of importsOf(file)) {
          if ('pkg' in t && (t.pkg === 'vitest' || t.pkg.startsWith('@vitest/'))) problems.push(`${t.pkg}: ${chain(parent, file)}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('no file in services/*/src or shared/src imports vitest unless it is a test (*.test.ts, *.test-support.ts)', () => {
    const files = [...SERVICES.map((s) => `services/${s}/src`), 'shared/src'].flatMap(tsFilesUnder);
    const offenders = files.filter((f) => !isTestCode(f) && importsOf(f).some((t) => 'pkg' in t && (t.pkg === 'vitest' || t.pkg.startsWith('@vitest/'))));
    // The rule must be able to fail: the tests themselves do import vitest.
    expect(files.some((f) => isTestCode(f) && importsOf(f).some((t) => 'pkg' in t && t.pkg === 'vitest'))).toBe(true);
    expect(offenders.map(rel)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['a']]]))).toEqual([['a', 'a']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import cycle in services/*/src and shared/src', () => {
    const files = [...SERVICES.map((s) => `services/${s}/src`), 'shared/src'].flatMap(tsFilesUnder);
    expect(files.length).toBeGreaterThan(100);
    const inScope = new Set(files);
    const edges = new Map(files.map((f) => [f, importsOf(f).flatMap((t) => ('file' in t && inScope.has(t.file) ? [t.file] : []))]));
    expect(findCycles(edges).map((cycle) => cycle.map(rel).join(' -> '))).toEqual([]);
  });
});
