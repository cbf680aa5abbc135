import { describe, expect, it } from 'vitest';
import { parse } from 'node-html-parser';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { hiddenText, logoAlts, readPageEvidence } from './page-evidence.ts';

describe("the site's own logo", () => {
  it('is the image linking home or marked "logo" in the header, not a back-to-top link or a partner logo', () => {
    const html = `<html><body><a href="#top"><img src="/img/up.png" alt="Back To Top"></a>
      <header><a href="https://www.acme.com/"><img src="/img/brand.png" alt="Acme Widgets logo"></a></header>
      <main><img src="/img/partner-logo.png" alt="Partner Corp"></main></body></html>`;
    expect(logoAlts(snapshotFromHtml(html, 'https://www.acme.com/'))).toEqual(['Acme Widgets logo']);
  });
});

describe('text the browser does not show', () => {
  const html = `<html><head><title>Harbor Glass</title><style>.tab{display:none}</style></head><body>
    <main><p>Harbor Glass fits windows and doors.</p>
    <div class="tab"><p>Financing by Harbor Glass &amp; Doors Ltd.</p><p>Write to quotes@harborglass.example</p></div>
    <div class="tab"><p>Showroom<br>418 Harbour Road<br>Halifax, NS B3H 1A1</p></div>
    <script>document.title = "Harbor Glass fits windows and doors.";</script><noscript>Turn on JavaScript</noscript></main></body></html>`;
  // What a browser's innerText gives for this page: the closed tabs are not in it.
  const shown = 'Harbor Glass fits windows and doors.';

  it('is the markup lines that are not shown, once each, without scripts, styles or noscript', () => {
    expect(hiddenText(parse(html), shown).split('\n')).toEqual([
      'Financing by Harbor Glass & Doors Ltd.',
      'Write to quotes@harborglass.example',
      'Showroom',
      '418 Harbour Road',
      'Halifax, NS B3H 1A1',
    ]);
    expect(hiddenText(parse(html), `${shown}\nFinancing by Harbor Glass & Doors Ltd.`)).not.toContain('Financing');
  });

  it('is read for names, emails and addresses', () => {
    const snapshot = snapshotFromHtml(html, 'https://harborglass.example/');
    snapshot.text.visible = shown;
    const evidence = readPageEvidence(snapshot, 'harborglass');
    expect(evidence.names.map((n) => n.name)).toContain('Harbor Glass & Doors Ltd.');
    expect(evidence.emails.map((e) => e.email)).toContain('quotes@harborglass.example');
    expect(evidence.addresses.map((a) => a.line)).toContain('418 Harbour Road, Halifax, NS B3H 1A1');
  });
});
