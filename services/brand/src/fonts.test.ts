import { describe, expect, it } from 'vitest';
import type { Snapshot } from '@enrich/shared/contracts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { analyzeFonts, firstFamily, googleFontsFamilies } from './fonts.ts';

const font = (family: string, area: number, role: Snapshot['styles']['fonts'][number]['role'] = 'body') => ({ family, role, area, count: 1 });

describe('googleFontsFamilies', () => {
  it('reads the css2 API, one family parameter per family, with axes', () => {
    expect(googleFontsFamilies('https://fonts.googleapis.com/css2?family=Open+Sans:ital,wght@0,400;1,700&family=Roboto+Mono&display=swap')).toEqual([
      'Open Sans',
      'Roboto Mono',
    ]);
  });
  it('reads the v1 css API with families joined by |', () => {
    expect(googleFontsFamilies('https://fonts.googleapis.com/css?family=Open+Sans:400,700|Roboto&subset=latin')).toEqual(['Open Sans', 'Roboto']);
    expect(googleFontsFamilies('https://fonts.googleapis.com/css?family=Lato:400,700&amp;subset=latin')).toEqual(['Lato']);
  });
  it('ignores other hosts and paths', () => {
    expect(googleFontsFamilies('https://fonts.gstatic.com/s/inter/v12/x.woff2')).toEqual([]);
    expect(googleFontsFamilies('https://example.com/css2?family=Inter')).toEqual([]);
  });
});

describe('firstFamily', () => {
  it('unquotes and drops generic or system stacks', () => {
    expect(firstFamily('"Helvetica Neue", Arial, sans-serif')).toBe('Helvetica Neue');
    expect(firstFamily('-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto')).toBeNull();
    expect(firstFamily('system-ui')).toBeNull();
  });
});

describe('analyzeFonts', () => {
  it('orders computed families by visible text area, first family of each stack only', () => {
    const snap = snapshotFromHtml('<html><body>x</body></html>', 'https://acme.io/');
    snap.styles.fonts = [
      font('Inter, sans-serif', 400_000),
      font('"Playfair Display", Georgia, serif', 90_000, 'heading'),
      font('-apple-system, BlinkMacSystemFont, sans-serif', 800_000),
      font('inter, Arial', 20_000, 'button'),
      font('"JetBrains Mono", monospace', 5_000),
    ];
    expect(analyzeFonts(snap).families).toEqual(['Inter', 'Playfair Display', 'JetBrains Mono']);
  });

  it('falls back to CSS declarations when there are no computed styles', () => {
    const html = `<html><head><style>
      @font-face { font-family: "Brand Sans"; src: url(/f/brand.woff2) format("woff2"); }
      body { font-family: "Brand Sans", system-ui, sans-serif } h1, h2 { font: 700 2rem/1.2 'Brand Serif', serif } code { font-family: monospace }
      .lead { font-family: "Brand Sans" }</style></head><body></body></html>`;
    expect(analyzeFonts(snapshotFromHtml(html, 'https://acme.io/')).families).toEqual(['Brand Sans', 'Brand Serif']);
  });

  it('finds Google Fonts from a css2 link tag and from CSS @import', () => {
    const html = `<html><head><link rel="preconnect" href="https://fonts.gstatic.com">
      <link href="https://fonts.googleapis.com/css2?family=Inter:wght@400;600&family=Fraunces:opsz@9..144&display=swap" rel="stylesheet">
      <style>@import url('https://fonts.googleapis.com/css?family=Lato:300,400|Inter');</style></head><body></body></html>`;
    expect(analyzeFonts(snapshotFromHtml(html, 'https://acme.io/')).google_fonts).toEqual(['Inter', 'Fraunces', 'Lato']);
  });

  it('reports a Typekit kit id, and its families when the kit CSS was captured', () => {
    const html = `<html><head><link rel="stylesheet" href="https://use.typekit.net/xyz4abc.css"></head><body></body></html>`;
    const snap = snapshotFromHtml(html, 'https://acme.io/');
    expect(analyzeFonts(snap).typekit).toEqual(['xyz4abc']);
    snap.stylesheets.push({
      url: 'https://use.typekit.net/xyz4abc.css',
      text: '@font-face{font-family:"proxima-nova";src:url("https://use.typekit.net/af/1/00/l?primer=x") format("woff2");font-weight:400}@font-face{font-family:"proxima-nova";font-weight:700;src:url(x)}@font-face{font-family:"freight-text-pro";src:url(y)}',
    });
    expect(analyzeFonts(snap).typekit).toEqual(['proxima-nova', 'freight-text-pro']);
  });

  it('is empty on a page that declares no fonts', () => {
    expect(analyzeFonts(snapshotFromHtml('<html><body><p>plain</p></body></html>', 'https://acme.io/'))).toEqual({
      families: [],
      google_fonts: [],
      typekit: [],
    });
  });
});
