import { describe, expect, it } from 'vitest';
import { alternate, blockOrder, pooled } from './paired.ts';

describe('alternating blocks', () => {
  it('rotates which side goes first, so each leads as often as the others', () => {
    expect([0, 1, 2, 3].map((b) => blockOrder(['a', 'b', 'c'], b).join(''))).toEqual(['abc', 'bca', 'cab', 'abc']);
    expect(blockOrder([], 3)).toEqual([]);
  });

  it("pools a side's blocks: every sample, the wall times summed", () => {
    const ms = (...xs: number[]) => xs.map((x) => ({ ms: x, ok: true, status: 200 }));
    const s = pooled([
      { samples: ms(100, 300), wallMs: 1000 },
      { samples: ms(200, 400, 500), wallMs: 1500 },
    ]);
    expect(s.requests).toBe(5);
    expect(s.p50).toBe(300);
    // 5 answers in 2.5 s of the side's own blocks.
    expect(s.throughput).toBe(2);
  });

  it('runs the sides in turns, block after block, and keeps their samples apart', async () => {
    const log: string[] = [];
    const side = (name: string) => async (i: number) => {
      log.push(`${name}${i}`);
      return { ok: true, status: 200 };
    };
    const r = await alternate(1, 2, 2, { ours: side('o'), bare: side('b') });
    expect(log).toEqual(['o0', 'o1', 'b0', 'b1', 'b0', 'b1', 'o0', 'o1']);
    expect(r.ours.requests).toBe(4);
    expect(r.bare.requests).toBe(4);
  });
});
