import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { logoAlts } from './page-evidence.ts';

describe("the site's own logo", () => {
  it('is the image linking home or marked "logo" in the header, not a back-to-top link or a partner logo', () => {
    const html = `<html><body><a href="#top"><img src="/img/up.png" alt="Back To Top"></a>
      <header><a href="https://www.acme.com/"><img src="/img/brand.png" alt="Acme Widgets logo"></a></header>
      <main><img src="/img/partner-logo.png" alt="Partner Corp"></main></body></html>`;
    expect(logoAlts(snapshotFromHtml(html, 'https://www.acme.com/'))).toEqual(['Acme Widgets logo']);
  });
});
