/**
 * The brand fixture sites, analysed without a browser (snapshotFromHtml): everything their
 * expected.json states must already hold from the HTML and CSS alone. The browser e2e runs check
 * the same expectations with computed styles and logo rasters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { checkBrandExpectations, type BrandExpectations } from '../../../test/eval/score-brand.ts';
import { analyzeBrand } from './analyze.ts';

const SITES = join(import.meta.dirname, '../../../test/fixtures/sites');
const sites = readdirSync(SITES).filter((d) => d.startsWith('brand-'));

describe('brand fixture sites (offline)', () => {
  it('has the six fixture sites', () => {
    expect(sites.sort()).toEqual(['brand-cssvars', 'brand-dark', 'brand-gfonts', 'brand-saas', 'brand-shop', 'brand-typekit']);
  });

  it.each(sites)('%s meets its expected.json', async (site) => {
    const html = readFileSync(join(SITES, site, 'index.html'), 'utf8');
    const expected = JSON.parse(readFileSync(join(SITES, site, 'expected.json'), 'utf8')) as BrandExpectations;
    const snapshot = snapshotFromHtml(html, `http://127.0.0.1:8080/${site}/index.html`);
    const out = await analyzeBrand({
      requestId: '00000000-0000-4000-8000-000000000000',
      snapshot,
      screenshotUrl: '',
      options: { screenshotColors: null, css: true, html: true, javascript: false },
    });
    expect(checkBrandExpectations(expected, out)).toEqual([]);
  });
});
