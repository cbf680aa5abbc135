import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSplit, halfOf, halfOfSite, siteOf, type SplitFile } from './split.ts';

const committed = JSON.parse(readFileSync(join(import.meta.dirname, 'split.json'), 'utf8')) as SplitFile;
const corpusTruth = join(import.meta.dirname, '../../../shared/corpus/dev/ground_truth.jsonl');

describe('the tuning/validation split', () => {
  it('puts a site in one half, the same for every spelling of its host', () => {
    expect(siteOf({ domain: 'WWW.Example.com' })).toBe('example.com');
    expect(siteOf({ domain: '', url: 'http://www.example.com/contact' })).toBe('example.com');
    expect(halfOfSite('example.com')).toBe(halfOfSite(siteOf({ url: 'https://www.example.com/' })));
  });

  it('is the committed file, built from the hash rule alone', () => {
    const rebuilt = buildSplit([...committed.tuning, ...committed.validation]);
    expect(rebuilt).toEqual(committed);
    expect(new Set(committed.tuning).size + new Set(committed.validation).size).toBe(committed.tuning.length + committed.validation.length);
    expect(committed.tuning.filter((s) => committed.validation.includes(s))).toEqual([]);
  });

  // Runs where the corpus sits beside the repository (../shared/corpus/dev), as in CI.
  it.skipIf(!existsSync(corpusTruth))('covers every site of the development corpus, roughly half each', () => {
    const records = readFileSync(corpusTruth, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { domain?: string; url?: string });
    const halves = records.map((r) => halfOf(r));
    const tuning = halves.filter((h) => h === 'tuning').length;
    expect(tuning / records.length).toBeGreaterThan(0.35);
    expect(tuning / records.length).toBeLessThan(0.65);
  });
});
