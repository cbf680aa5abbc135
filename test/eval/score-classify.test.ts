import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countByHalf, loadArticleTopics, scoreClassification, summarizeClassifications, tier1Of } from './score-classify.ts';

describe('scoreClassification', () => {
  it('counts a tier-2 hit only on the exact id and a tier-1 hit on the parent', () => {
    expect(scoreClassification({ iab: 'IAB8-9', iab_tier1: 'IAB8' }, { iab_id: 'IAB8-9', iab_parent_id: 'IAB8' })).toEqual({ tier1Hit: true, tier2Hit: true });
    expect(scoreClassification({ iab: 'IAB8-9', iab_tier1: 'IAB8' }, { iab_id: 'IAB8-8', iab_parent_id: 'IAB8' })).toEqual({ tier1Hit: true, tier2Hit: false });
    expect(scoreClassification({ iab: 'IAB3', iab_tier1: 'IAB3' }, { iab_id: 'IAB3-4', iab_parent_id: 'IAB3' })).toEqual({ tier1Hit: true, tier2Hit: false });
    expect(scoreClassification({ iab: 'IAB3', iab_tier1: 'IAB3' }, { iab_id: 'IAB19', iab_parent_id: 'IAB19' })).toEqual({ tier1Hit: false, tier2Hit: false });
  });

  it('counts the also ids of a page about two things, and their families, as hits', () => {
    const truth = { iab: 'IAB19-25', iab_tier1: 'IAB19', also: ['IAB9-30', 'IAB11'] };
    expect(scoreClassification(truth, { iab_id: 'IAB9-30', iab_parent_id: 'IAB9' })).toEqual({ tier1Hit: true, tier2Hit: true });
    expect(scoreClassification(truth, { iab_id: 'IAB9', iab_parent_id: 'IAB9' })).toEqual({ tier1Hit: true, tier2Hit: false });
    expect(scoreClassification(truth, { iab_id: 'IAB11-4', iab_parent_id: 'IAB11' })).toEqual({ tier1Hit: true, tier2Hit: false });
    expect(scoreClassification(truth, { iab_id: 'IAB12-1', iab_parent_id: 'IAB12' })).toEqual({ tier1Hit: false, tier2Hit: false });
    expect(tier1Of('IAB19-25')).toBe('IAB19');
    expect(tier1Of('IAB5')).toBe('IAB5');
  });

  it('loads one topic label per article, every id in the IAB 1.0 taxonomy', () => {
    const ids = new Set(
      readFileSync(join(import.meta.dirname, '../../services/classifier/data/iab-content-taxonomy-1.0.tsv'), 'utf8')
        .split('\n')
        .slice(1)
        .map((l) => l.split('\t')[0]),
    );
    const topics = loadArticleTopics();
    expect(topics.size).toBe(33);
    for (const [page, t] of topics) {
      expect(page).toMatch(/^rb-/);
      for (const id of [t.iab, ...(t.also ?? [])]) expect(ids.has(id), `${page}: ${id}`).toBe(true);
      expect(t.iab_tier1).toBe(tier1Of(t.iab));
    }
  });

  it('summarizes accuracy and the confusions, most frequent first', () => {
    const r = summarizeClassifications([
      { truth: { iab: 'IAB8-9', iab_tier1: 'IAB8' }, got: { iab_id: 'IAB8-9', iab_parent_id: 'IAB8' } },
      { truth: { iab: 'IAB3', iab_tier1: 'IAB3' }, got: { iab_id: 'IAB19-9', iab_parent_id: 'IAB19' } },
      { truth: { iab: 'IAB3-4', iab_tier1: 'IAB3' }, got: { iab_id: 'IAB19', iab_parent_id: 'IAB19' } },
      { truth: { iab: 'IAB10-7', iab_tier1: 'IAB10' }, got: { iab_id: 'IAB22', iab_parent_id: 'IAB22' } },
    ]);
    expect(r.pages).toBe(4);
    expect(r.tier1Accuracy).toBe(0.25);
    expect(r.tier2Accuracy).toBe(0.25);
    expect(r.topConfusions[0]).toEqual({ expected: 'IAB3', predicted: 'IAB19', count: 2 });
    expect(r.confusion['IAB10']).toEqual({ IAB22: 1 });
  });

  it('counts tier-1 and tier-2 per half, every half present', () => {
    const c = countByHalf(['tuning', 'validation'] as const, [
      { half: 'tuning', truth: { iab: 'IAB8-9', iab_tier1: 'IAB8' }, got: { iab_id: 'IAB8-9', iab_parent_id: 'IAB8' } },
      { half: 'tuning', truth: { iab: 'IAB8-9', iab_tier1: 'IAB8' }, got: { iab_id: 'IAB8', iab_parent_id: 'IAB8' } },
      { half: 'tuning', truth: { iab: 'IAB3', iab_tier1: 'IAB3' }, got: { iab_id: 'IAB19', iab_parent_id: 'IAB19' } },
    ]);
    expect(c.tuning).toEqual({ tier1: { right: 2, total: 3 }, tier2: { right: 1, total: 3 } });
    expect(c.validation).toEqual({ tier1: { right: 0, total: 0 }, tier2: { right: 0, total: 0 } });
  });
});
