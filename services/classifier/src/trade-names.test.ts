import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, PRESET_CATEGORY } from '../scripts/build-trade-names.ts';
import { iabTaxonomy } from './taxonomy.ts';

describe('the trade names data', () => {
  const file = JSON.parse(readFileSync(new URL('../data/trade-names.json', import.meta.url), 'utf8')) as {
    source: string;
    languages: Record<string, Record<string, string[]>>;
  };
  const ids = new Set(iabTaxonomy().all.map((c) => c.id));

  it('maps every preset to a category of the taxonomy', () => {
    expect(Object.values(PRESET_CATEGORY).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('holds the languages the build script names, each with names for most mapped categories, and no English', () => {
    expect(Object.keys(file.languages).sort()).toEqual([...LANGUAGES].sort());
    expect(file.languages.en).toBeUndefined();
    for (const lang of ['de', 'fr', 'es', 'it', 'nl', 'pl']) expect(Object.keys(file.languages[lang]!).length, lang).toBeGreaterThan(80);
    expect(file.languages.de!['IAB7-17']).toContain('zahnarzt');
    expect(file.source).toMatch(/id-tagging-schema/);
  });
});
