/**
 * src/schema.ts is what openapi-typescript makes of the document the edge serves today: a change of
 * the contracts without `node clients/typescript/scripts/generate.ts` fails here. The declarations
 * below are checked by tsc (part of `npm test`): the parameters are numbers and booleans.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEdge, type EdgeHarness } from '../../../test/support/edge-harness.ts';
import { generateTypes, SCHEMA_FILE } from '../scripts/generate.ts';
import type { Params } from './index.ts';

// Compile-time: what a caller may and may not pass.
export const typed: Params<'enrich'> = {
  url: 'northwind.example',
  width: 1440,
  height: 900,
  full_page: true,
  css: false,
  screenshotColors: 4,
  format: 'png',
  follow_links: true,
};
// @ts-expect-error width is a number, not the string a query carries
export const widthAsString: Params<'screenshot'> = { url: 'northwind.example', width: '1440' };
// @ts-expect-error full_page is a boolean
export const flagAsString: Params<'screenshot'> = { url: 'northwind.example', full_page: 'true' };
// @ts-expect-error format is one of jpeg, png, webp
export const unknownFormat: Params<'screenshot'> = { url: 'northwind.example', format: 'gif' };

let h: EdgeHarness;
let tmp: string;
beforeAll(async () => {
  h = await startEdge(inject('natsUrl'));
  tmp = mkdtempSync(join(tmpdir(), 'enrich-client-schema-'));
});
afterAll(async () => {
  await h?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the generated types', () => {
  it('are current: regenerating from the served /openapi.json gives the checked-in src/schema.ts', async () => {
    const res = await h.app.inject({ url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const fresh = join(tmp, 'schema.ts');
    await generateTypes(res.body, fresh);
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    expect(checkedIn, 'src/schema.ts is stale: run node clients/typescript/scripts/generate.ts').toBe(readFileSync(fresh, 'utf8'));
    expect(checkedIn).toContain('width?: number;');
  });
});
