import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processTree, sampleMemory, treeMemory } from './memory.ts';

describe('processTree and treeMemory', () => {
  it('find a grandchild and add its resident memory to the tree', async () => {
    // A shell that starts a sleep: the sleep is a grandchild of this test process.
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    try {
      let tree: number[] = [];
      for (let i = 0; i < 50 && tree.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 20));
        tree = processTree(child.pid!);
      }
      expect(tree[0]).toBe(child.pid);
      expect(tree.length).toBe(2);
      expect(processTree(process.pid)).toEqual(expect.arrayContaining(tree));
      const mine = treeMemory(process.pid, true);
      expect(mine.processes).toBeGreaterThanOrEqual(3);
      expect(mine.rssMb).toBeGreaterThan(treeMemory(child.pid!, false).rssMb);
      expect(mine.pssMb).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('keeps peaks per phase and overall', async () => {
    const sampler = sampleMemory({ self: process.pid }, { intervalMs: 10, pssEvery: 1 });
    sampler.phase('one');
    await new Promise((r) => setTimeout(r, 40));
    const report = sampler.stop();
    expect(report.overall.self!.peakRssMb).toBeGreaterThan(0);
    expect(report.byPhase.one!.self!.samples).toBeGreaterThan(0);
    expect(report.byPhase.one!.self!.peakRssMb).toBeLessThanOrEqual(report.overall.self!.peakRssMb);
  });
});
