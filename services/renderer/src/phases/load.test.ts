/** The bound on a page that keeps replacing its own document (the following itself is tested on real Chromium in render.test.ts). */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TargetNotASiteError } from '@enrich/shared/errors';
import type { RenderRun } from '../run.ts';
import { followSelfNavigation, MAX_SELF_NAVIGATIONS } from './load.ts';

describe('followSelfNavigation', () => {
  it(`gives up with TARGET_NOT_A_SITE after ${MAX_SELF_NAVIGATIONS} moves, before touching the page again`, async () => {
    let waited = 0;
    const page = {
      url: () => 'https://shop.example/again',
      waitForLoadState: async () => {
        waited++;
      },
    } as unknown as Page;
    const run = { req: { url: 'https://shop.example/' }, stage: '', job: { deadline: Date.now() + 10_000 } } as unknown as RenderRun;
    await followSelfNavigation(run, page, MAX_SELF_NAVIGATIONS);
    expect(waited).toBe(1);
    const err = await followSelfNavigation(run, page, MAX_SELF_NAVIGATIONS + 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetNotASiteError);
    expect((err as Error).message).toMatch(/kept replacing itself .*4 navigations of its own, the last to https:\/\/shop\.example\/again/);
    expect(waited).toBe(1);
  });
});
