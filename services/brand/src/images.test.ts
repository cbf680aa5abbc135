import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { analyzeImages } from './images.ts';

describe('analyzeImages', () => {
  it('resolves og and twitter images and lists brand and hero assets without pixels or avatars', () => {
    const html = `<html><head><meta property="og:image" content="/social/card.png"><meta name="twitter:image" content="https://cdn.acme.io/tw.png"></head><body>
      <header><img src="/logo.svg" width="120" height="30"></header>
      <main><img src="/hero/dashboard.webp" width="1200" height="640"><img src="/hero/dashboard.webp" width="1200" height="640">
      <img class="avatar" src="/people/jane.jpg" width="320" height="320"><img src="https://www.facebook.com/tr?id=1" width="1" height="1">
      <img src="/img/spacer.gif" width="400" height="200"></main></body></html>`;
    const images = analyzeImages(snapshotFromHtml(html, 'https://www.acme.io/'), 'https://www.acme.io/logo.svg');
    expect(images.og_image).toBe('https://www.acme.io/social/card.png');
    expect(images.twitter_image).toBe('https://cdn.acme.io/tw.png');
    expect(images.assets).toEqual([
      'https://www.acme.io/social/card.png',
      'https://cdn.acme.io/tw.png',
      'https://www.acme.io/logo.svg',
      'https://www.acme.io/hero/dashboard.webp',
    ]);
  });

  it('gives empty strings when no social image is declared and leaves out inline SVG data URIs', () => {
    const images = analyzeImages(snapshotFromHtml('<html><body><p>x</p></body></html>', 'https://acme.io/'), 'data:image/svg+xml;base64,AAAA');
    expect(images).toEqual({ og_image: '', twitter_image: '', assets: [] });
  });
});
