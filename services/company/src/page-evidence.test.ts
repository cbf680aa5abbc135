import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { logoAlts, readPageEvidence } from './page-evidence.ts';

describe("the site's own logo", () => {
  it('is the image linking home or marked "logo" in the header, not a back-to-top link or a partner logo', () => {
    const html = `<html><body><a href="#top"><img src="/img/up.png" alt="Back To Top"></a>
      <header><a href="https://www.acme.com/"><img src="/img/brand.png" alt="Acme Widgets logo"></a></header>
      <main><img src="/img/partner-logo.png" alt="Partner Corp"></main></body></html>`;
    expect(logoAlts(snapshotFromHtml(html, 'https://www.acme.com/'))).toEqual(['Acme Widgets logo']);
  });
});

describe('text the browser did not show', () => {
  it('gives a legal name found only in a collapsed section, at a lower weight than shown text', () => {
    const html = `<html><head><title>Acmewindows.com</title><script>var x = "Scripted Name Inc.";</script></head><body>
      <div class="faq" style="display:none"><p>Buy from Acme Windows &amp; Doors Inc. with a plan.</p></div>
      <p>Energy saving windows by Acme Builders Ltd.</p></body></html>`;
    const snapshot = snapshotFromHtml(html, 'http://www.acmewindows.com/');
    // As the browser reports it: the collapsed paragraph is not in the visible text.
    const shown = { ...snapshot, text: { ...snapshot.text, visible: 'Energy saving windows by Acme Builders Ltd.' } };
    const names = readPageEvidence(shown, 'acmewindows').names.filter((n) => n.source === 'text');
    expect(names).toEqual(
      expect.arrayContaining([
        { name: 'Acme Builders Ltd.', source: 'text', weight: 0.2 },
        { name: 'Acme Windows & Doors Inc.', source: 'text', weight: 0.15 },
      ]),
    );
    expect(names.some((n) => n.name.includes('Scripted'))).toBe(false);
    expect(names.filter((n) => n.name === 'Acme Builders Ltd.')).toHaveLength(1);
  });
});
