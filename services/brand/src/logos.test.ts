import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { analyzeLogos } from './logos.ts';

const page = (body: string, head = ''): string =>
  `<!doctype html><html><head><title>Acme Analytics | Dashboards for teams</title>
   <link rel="icon" href="/favicon.ico"><link rel="icon" type="image/png" sizes="192x192" href="/icon-192.png">
   <link rel="apple-touch-icon" href="/apple-touch-icon.png">${head}</head><body>${body}</body></html>`;

const URL_ = 'https://www.acme.io/pricing';
const logosOf = (html: string) => analyzeLogos(snapshotFromHtml(html, URL_));

describe('analyzeLogos', () => {
  it('picks an inline SVG logo in the header and gives it a data URI', () => {
    const { logos, primary } = logosOf(
      page(`<header><a href="/" class="brand"><svg viewBox="0 0 120 32" aria-label="Acme"><path d="M0 0h10v10z" fill="#5B3DF5"/></svg></a>
      <nav><a href="/docs">Docs</a><a href="https://twitter.com/acme"><svg width="20" height="20"><path d="M1 1"/></svg></a></nav></header>`),
    );
    expect(logos.primary).toMatchObject({ source: 'header', isSvg: true });
    expect(logos.primary!.url).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(logos.primary!.url.split(',')[1]!, 'base64').toString();
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(primary!.refs).toEqual(['svg:0']);
    expect(logos.primary!.score).toBeGreaterThan(0.8);
  });

  it('prefers the header logo over a strip of partner logos that are also named "logo"', () => {
    const strip = ['stripe', 'shopify', 'notion', 'slack', 'zoom']
      .map((n) => `<li class="logo-item"><img src="/img/customers/${n}-logo.svg" alt="${n} logo" width="120" height="40"></li>`)
      .join('');
    const { logos } = logosOf(
      page(`<header><a href="/"><img src="/static/acme-logo.svg" alt="Acme Analytics" width="140" height="36"></a></header>
      <main><h1>Dashboards</h1><section class="trusted-by"><h2>Trusted by 4,000 teams</h2><ul class="logos">${strip}</ul></section></main>`),
    );
    expect(logos.primary!.url).toBe('https://www.acme.io/static/acme-logo.svg');
    expect(logos.primary!.isSvg).toBe(true);
    expect([logos.primary, ...logos.secondary].map((l) => l!.url).join(' ')).not.toMatch(/customers/);
  });

  it('does not take a partner logo when the page has no logo of its own; the icons remain', () => {
    const strip = ['ibm', 'sap', 'oracle']
      .map((n) => `<div class="col"><a href="https://www.${n}.com/"><img src="/img/${n}-logo.png" alt="${n} logo" width="120" height="40"></a></div>`)
      .join('');
    const { logos } = logosOf(page(`<main><h2>Our customers</h2><div class="row">${strip}</div></main>`));
    expect(logos.primary!.url).toBe('https://www.acme.io/apple-touch-icon.png');
    expect(logos.primary!.source).toBe('apple-touch-icon');
    expect(logos.primary!.score).toBeLessThan(0.5);
  });

  it('never picks the favicon when a real logo exists, and fills the icon fields', () => {
    const { logos } = logosOf(
      page(`<div id="top"><a href="https://acme.io/"><img src="/assets/header.png" alt="Acme Analytics" width="180" height="48"></a></div>`),
    );
    expect(logos.primary!.url).toBe('https://www.acme.io/assets/header.png');
    expect(logos.favicon_url).toBe('https://www.acme.io/favicon.ico');
    expect(logos.icon_url).toBe('https://www.acme.io/icon-192.png');
    expect(logos.apple_touch_icon).toBe('https://www.acme.io/apple-touch-icon.png');
    expect(logos.secondary.map((l) => l.source)).toEqual(['apple-touch-icon', 'icon', 'favicon']);
  });

  it('ignores tracking pixels even inside the header next to the logo link', () => {
    const { logos } = logosOf(
      page(`<header><a href="/"><img src="https://www.facebook.com/tr?id=1&ev=PageView" width="1" height="1" alt="logo"><img src="/spacer.gif" class="logo" width="1" height="1">
      <img src="/img/logo.png" alt="" width="160" height="40"></a></header>`),
    );
    expect(logos.primary!.url).toBe('https://www.acme.io/img/logo.png');
    expect(JSON.stringify(logos)).not.toMatch(/facebook|spacer/);
  });

  it('takes the JSON-LD organisation logo as source jsonld, confirmed when the header shows the same file', () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Acme Analytics","logo":{"@type":"ImageObject","url":"https://www.acme.io/brand/acme.png"}}]}</script>`;
    const { logos, primary } = logosOf(page(`<header><a href="/"><img src="/brand/acme.png" alt="Home" width="150" height="40"></a></header>`, ld));
    expect(logos.primary).toMatchObject({ url: 'https://www.acme.io/brand/acme.png', source: 'jsonld', isSvg: false });
    expect(primary!.refs).toContain('img:0');
    expect(logos.primary!.score).toBeGreaterThan(0.9);
  });

  it('falls back to the favicon only when it is all there is, and is null with no candidate at all', () => {
    const onlyFavicon = analyzeLogos(snapshotFromHtml('<html><head><link rel="shortcut icon" href="/favicon.ico"></head><body><p>Hi</p></body></html>', URL_));
    expect(onlyFavicon.logos.primary).toMatchObject({ url: 'https://www.acme.io/favicon.ico', source: 'favicon' });
    const nothing = analyzeLogos(snapshotFromHtml('<html><body><p>Hi</p><img src="/photo.jpg" width="800" height="600"></body></html>', URL_));
    expect(nothing.logos.primary).toBeNull();
    expect(nothing.logos.favicon_url).toBeNull();
  });
});
