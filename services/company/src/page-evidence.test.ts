import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { randomUUID } from 'node:crypto';
import { analyzeCompany } from './analyze.ts';
import { creditedMailbox, logoAlts, textLogos } from './page-evidence.ts';

describe("the site's own logo", () => {
  it('is the image linking home or marked "logo" in the header, not a back-to-top link or a partner logo', () => {
    const html = `<html><body><a href="#top"><img src="/img/up.png" alt="Back To Top"></a>
      <header><a href="https://www.acme.com/"><img src="/img/brand.png" alt="Acme Widgets logo"></a></header>
      <main><img src="/img/partner-logo.png" alt="Partner Corp"></main></body></html>`;
    expect(logoAlts(snapshotFromHtml(html, 'https://www.acme.com/'))).toEqual(['Acme Widgets logo']);
  });
});

describe("the site's name written as its logo", () => {
  const article = (header: string, title: string) =>
    `<html><head><title>${title}</title></head><body><header>${header}</header><main><article><h1>Storms hit the coast</h1>
      <p>Heavy storms hit the coast on Monday.</p></article></main></body></html>`;
  const url = 'https://www.dailyexample.com/2024/storms';

  it("is the first link home in the header when it holds text, not an image's alt, and confirms the title or domain", () => {
    const wordpress = article('<p class="site-title"><a href="https://www.dailyexample.com/" rel="home">The Daily Example</a></p>', 'Storms hit the coast');
    expect(textLogos(snapshotFromHtml(wordpress, url), 'dailyexample')).toEqual(['The Daily Example']);
    // A first menu link that is no name, and an image link (its alt is logoAlts' to read).
    expect(textLogos(snapshotFromHtml(article('<nav><a href="/">Latest</a><a href="/news">News</a></nav>', 'Storms'), url), 'dailyexample')).toEqual([]);
    expect(textLogos(snapshotFromHtml(article('<a href="/"><img src="/l.png" alt="The Daily Example"></a>', 'Storms'), url), 'dailyexample')).toEqual([]);
  });

  it('names the publication over the headline and the host', () => {
    const name = (html: string) => analyzeCompany({ requestId: randomUUID(), snapshot: snapshotFromHtml(html, url), extraSnapshots: [] }).data.name;
    expect(name(article('<div id="site-title"><a href="/" rel="home">Notes from the Field</a></div>', 'Storms hit the coast – Notes from the Field'))).toBe(
      'Notes from the Field',
    );
    expect(name(article('<h1 class="logo"><a href="/">The Daily Example</a></h1>', 'Storms hit the coast | dailyexample.com'))).toBe('The Daily Example');
  });
});

describe('emails the page shows only on a click', () => {
  it('are read from the document text too (a closed tab, accordion or <details>), never from script or form-control text', () => {
    const html = `<html><body><div class="tab">Leeds office: 1 Mill Lane</div><div class="tab" style="display:none">York office: york@acme.example</div>
      <details><summary>More</summary>Write to <b>help@acme.example</b></details><script>var x = "js@acme.example";</script><textarea>typed@acme.example</textarea></body></html>`;
    const snapshot = snapshotFromHtml(html, 'https://www.acme.example/contact');
    // As the browser reports the page: innerText leaves out what is not shown.
    const shown = { ...snapshot, text: { ...snapshot.text, visible: 'Leeds office: 1 Mill Lane\nMore' } };
    expect(analyzeCompany({ requestId: randomUUID(), snapshot: shown, extraSnapshots: [] }).data.emails).toEqual(['york@acme.example', 'help@acme.example']);
  });
});

describe("the web agency's address in its credit", () => {
  it("is not the owner's: an address at the domain of a name the page credits with making the site", () => {
    const html = `<html><body><h1>Contact</h1><p>Email info@keanedoyle.ie or partners@keanedoyle.ie</p>
      <footer>© 2024 Keane &amp; Doyle · Site by Copperline Digital (studio@copperline.ie) · Photos: hello@lensworks.ie</footer></body></html>`;
    const emails = analyzeCompany({ requestId: randomUUID(), snapshot: snapshotFromHtml(html, 'https://www.keanedoyle.ie/contact'), extraSnapshots: [] }).data
      .emails;
    expect(emails).toEqual(['info@keanedoyle.ie', 'partners@keanedoyle.ie', 'hello@lensworks.ie']);
  });

  it("keeps the site's own address when the site credits itself", () => {
    expect(creditedMailbox('studio@copperline.ie', new Set(['copperline']), 'copperline')).toBe(false);
    expect(creditedMailbox('studio@copperline.ie', new Set(['copperlinedigital']), 'keanedoyle')).toBe(true);
    expect(creditedMailbox('info@gmail.com', new Set(['wix']), 'keanedoyle')).toBe(false);
  });
});
