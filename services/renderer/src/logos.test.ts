import { describe, expect, it } from 'vitest';
import type { Image, Svg } from '@enrich/shared/contracts';
import { declaredLogoUrl, pickLogoCandidates } from './logos.ts';

const PAGE = 'https://www.acme-roasters.example/en/';
const facts = { id: null, className: null, title: null, ariaLabel: null, visible: true, region: 'main' as const, linkHref: null, ancestorHints: '' };
const img = (index: number, over: Partial<Image>): Image => ({
  ...facts, index, box: { x: 0, y: 600, width: 300, height: 200 }, src: `https://www.acme-roasters.example/i/${index}.jpg`, alt: null, naturalWidth: 300, naturalHeight: 200, kind: 'img', ...over,
});
const svg = (index: number, over: Partial<Svg>): Svg => ({ ...facts, index, box: { x: 0, y: 10, width: 24, height: 24 }, markup: '<svg></svg>', truncated: false, ...over });

describe('pickLogoCandidates', () => {
  it('ranks a header image linking home with logo hints first and ignores content photos', () => {
    const images = [
      img(0, { alt: 'Our roastery' }),
      img(1, { region: 'header', linkHref: 'https://acme-roasters.example/', className: 'site-logo', box: { x: 20, y: 12, width: 140, height: 48 } }),
      img(2, { region: 'footer', src: 'https://cdn.example/partner-logo.png', box: { x: 0, y: 2400, width: 90, height: 30 } }),
    ];
    const svgs = [svg(0, { region: 'nav' }), svg(1, { visible: false, className: 'logo' })];
    expect(pickLogoCandidates(images, svgs, PAGE, 6).map((c) => c.ref)).toEqual(['img:1', 'img:2', 'svg:0']);
  });
  it('respects the maximum', () => {
    const images = Array.from({ length: 10 }, (_, i) => img(i, { region: 'header', box: { x: 0, y: 0, width: 100, height: 40 } }));
    expect(pickLogoCandidates(images, [], PAGE, 5)).toHaveLength(5);
  });
});

describe('declaredLogoUrl', () => {
  it('reads the Organization logo from JSON-LD, nested in a graph, as an absolute URL', () => {
    const ld = JSON.stringify({ '@graph': [{ '@type': 'WebSite' }, { '@type': 'Organization', logo: { '@type': 'ImageObject', url: '/img/logo.svg' } }] });
    expect(declaredLogoUrl(['{ not json', ld], [], PAGE)).toBe('https://www.acme-roasters.example/img/logo.svg');
  });
  it('falls back to og:logo and refuses non-http schemes', () => {
    const meta = [{ name: null, property: 'og:logo', httpEquiv: null, itemprop: null, content: 'https://cdn.example/logo.png' }];
    expect(declaredLogoUrl([], meta, PAGE)).toBe('https://cdn.example/logo.png');
    expect(declaredLogoUrl(['{"logo":"javascript:alert(1)"}'], [], PAGE)).toBeNull();
    expect(declaredLogoUrl([], [], PAGE)).toBeNull();
  });
});
