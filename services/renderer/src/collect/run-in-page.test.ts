/**
 * Integration (real Chromium): a collector's result crosses from the page as a JSON string, and a
 * page whose scripts changed how JSON is written (a `toJSON` on Array or Object, as Prototype.js
 * added, or JSON.stringify replaced) still gives the collector's own result.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRendererConfig } from '../config.ts';
import type { PageHelpers } from './page-helpers.ts';
import { runInPage } from './run-in-page.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: loadRendererConfig({}).CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  await browser?.close();
});

/** Reads the page's links and a few values JSON writes its own way. */
function collectLinks(h: PageHelpers, arg: { prefix: string }) {
  const links = Array.from(document.querySelectorAll('a')).map((a) => ({ text: `${arg.prefix}${a.textContent}`, href: h.abs(a.getAttribute('href')) }));
  return { links, count: links.length, nested: [[1, 2], []], missing: undefined, nothing: null };
}

async function pageWith(script: string): Promise<Page> {
  const page = await browser.newPage();
  await page.setContent(`<a href="https://example.test/a">One</a><a href="/b">Two</a><script>${script}</script>`);
  return page;
}

// The page is about:blank, against which "/b" is no URL (h.abs gives null).
const EXPECTED = {
  links: [
    { text: '> One', href: 'https://example.test/a' },
    { text: '> Two', href: null },
  ],
  count: 2,
  nested: [[1, 2], []],
  nothing: null,
};

describe('runInPage', () => {
  it('returns the collector result on a plain page (sent as JSON: an undefined property is left out)', async () => {
    const page = await pageWith('');
    try {
      const out = await runInPage(page, collectLinks, { prefix: '> ' });
      expect(out).toEqual(EXPECTED);
      expect(Object.keys(out)).not.toContain('missing');
    } finally {
      await page.close();
    }
  });

  it("gives the same result where the page's scripts gave Array and Object a toJSON (Prototype.js)", async () => {
    const page = await pageWith("Array.prototype.toJSON = function () { return 'array!'; }; Object.prototype.toJSON = function () { return 'object!'; };");
    try {
      expect(await page.evaluate('JSON.stringify({ a: [1] })')).toBe('"object!"');
      const out = await runInPage(page, collectLinks, { prefix: '> ' });
      expect(out.count).toBe(2);
      expect(out.nested).toEqual([[1, 2], []]);
      expect(out.links.map((l) => l.text)).toEqual(['> One', '> Two']);
    } finally {
      await page.close();
    }
  });

  it('gives the same result where the page replaced JSON.stringify', async () => {
    const page = await pageWith("JSON.stringify = function () { return 'not json'; };");
    try {
      const out = await runInPage(page, collectLinks, { prefix: '> ' });
      expect(out.count).toBe(2);
      expect(out.links.map((l) => l.text)).toEqual(['> One', '> Two']);
    } finally {
      await page.close();
    }
  });
});
