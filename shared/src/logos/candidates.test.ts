import { describe, expect, it } from 'vitest';
import type { Image, LinkTag, Snapshot, Svg } from '../contracts/index.ts';
import { microdataLogos } from '../page/microdata.ts';
import { organizationFacts } from '../page/jsonld.ts';
import { firstRasterRefBeforeIcons, isLogoCandidate, rankLogoCandidates, rasterPlan, type LogoPage } from './candidates.ts';
import { parseManifestIcons, siteIcons } from './icons.ts';

const PAGE = 'https://www.acme-roasters.example/en/';
const facts = { id: null, className: null, title: null, ariaLabel: null, visible: true, region: 'main' as const, linkHref: null, ancestorHints: '' };
const img = (index: number, over: Partial<Image>): Image => ({
  ...facts,
  index,
  box: { x: 0, y: 600, width: 300, height: 200 },
  src: `https://www.acme-roasters.example/i/${index}.jpg`,
  alt: null,
  naturalWidth: 300,
  naturalHeight: 200,
  kind: 'img',
  ...over,
});
const svg = (index: number, over: Partial<Svg>): Svg => ({
  ...facts,
  index,
  box: { x: 0, y: 10, width: 24, height: 24 },
  markup: '<svg></svg>',
  truncated: false,
  ...over,
});
const link = (rel: string, href: string, sizes: string | null = null): LinkTag => ({ rel, href, type: null, sizes, media: null });
const page = (over: Partial<LogoPage>): LogoPage => ({
  finalUrl: PAGE,
  title: 'Acme Roasters',
  meta: [],
  links: [],
  jsonLd: [],
  html: '',
  images: [],
  svgs: [],
  viewport: { width: 1280, height: 800 },
  resources: [],
  ...over,
});

describe('the share image as a logo', () => {
  const meta = (property: string, content: string) => ({ name: null, property, content, itemprop: null, httpEquiv: null });
  const urls = (p: LogoPage) => rankLogoCandidates(p).candidates.map((c) => c.url);

  it('counts og:image when its file or its alt text says it is the logo', () => {
    expect(urls(page({ meta: [meta('og:image', '/images/brand/acme-logo.png')] }))).toContain('https://www.acme-roasters.example/images/brand/acme-logo.png');
    expect(urls(page({ meta: [meta('og:image', '/share/card.png'), meta('og:image:alt', 'Acme Roasters logo')] }))).toContain(
      'https://www.acme-roasters.example/share/card.png',
    );
  });

  it('leaves a share image that does not say so (a hero photo, a product shot)', () => {
    expect(urls(page({ meta: [meta('og:image', '/images/summer-hero.jpg'), meta('og:image:alt', 'Our roastery at dawn')] }))).toEqual([]);
  });
});

describe('rasterPlan (what the renderer rasterises)', () => {
  it("takes only the top candidate, the brand analyzer's primary, its element before its URL", () => {
    const p = page({
      images: [
        img(0, { alt: 'Our roastery' }),
        img(1, { region: 'header', linkHref: 'https://acme-roasters.example/', className: 'site-logo', box: { x: 20, y: 12, width: 140, height: 48 } }),
      ],
      svgs: [svg(0, { region: 'nav' })],
      jsonLd: [JSON.stringify({ '@type': 'Organization', logo: '/img/declared.png' })],
      links: [link('icon', 'https://www.acme-roasters.example/favicon.png', '32x32'), link('apple-touch-icon', 'https://www.acme-roasters.example/touch.png')],
    });
    const { candidates } = rankLogoCandidates(page(p));
    const plan = rasterPlan(candidates);
    expect(plan[0]).toBe('img:1');
    expect(plan.every((ref) => candidates[0]!.refs.includes(ref))).toBe(true);
    expect(plan).not.toContain('url:https://www.acme-roasters.example/img/declared.png');
  });

  it('takes the declared logo by URL when the page does not show it', () => {
    const p = page({ jsonLd: [JSON.stringify({ '@type': 'Organization', logo: '/img/declared.png' })] });
    expect(rasterPlan(rankLogoCandidates(page(p)).candidates)).toEqual(['url:https://www.acme-roasters.example/img/declared.png']);
  });

  it('takes nothing when the top candidate is a site icon', () => {
    const p = page({ links: [link('apple-touch-icon', 'https://www.acme-roasters.example/touch.png')] });
    const { candidates } = rankLogoCandidates(page(p));
    expect(isLogoCandidate(candidates[0]!)).toBe(false);
    expect(rasterPlan(candidates)).toEqual([]);
  });

  it('ranks logos the same whatever icons and loaded resources the page has (renderer and brand agree)', () => {
    const images = [
      img(0, { region: 'header', linkHref: PAGE, alt: 'Acme', src: 'https://www.acme-roasters.example/a.png', box: { x: 0, y: 0, width: 120, height: 40 } }),
      img(1, { className: 'logo', src: 'https://www.acme-roasters.example/b.png' }),
    ];
    const bare = rankLogoCandidates(page({ images })).candidates;
    const withIcons = rankLogoCandidates(
      page({
        images,
        links: [link('apple-touch-icon', 'https://www.acme-roasters.example/b.png'), link('icon', 'https://www.acme-roasters.example/a.png')],
        resources: [{ url: 'https://www.acme-roasters.example/favicon.ico', type: 'other', status: 200 }],
      }),
    ).candidates;
    expect(rasterPlan(withIcons)).toEqual(rasterPlan(bare));
    expect(withIcons.filter(isLogoCandidate).map((c) => [c.url, c.raw])).toEqual(bare.filter(isLogoCandidate).map((c) => [c.url, c.raw]));
  });
});

describe('firstRasterRefBeforeIcons (the logo the renderer reads from its file while the page is captured)', () => {
  const headerLogo = img(0, { region: 'header', className: 'logo', linkHref: PAGE, box: { x: 0, y: 10, width: 120, height: 40 } });
  const banner = img(1, { src: 'https://www.acme-roasters.example/img/acmeroasters-top.jpg', box: { x: 0, y: 0, width: 900, height: 150 } });
  const touch = link('apple-touch-icon', 'https://www.acme-roasters.example/touch.png');

  it('is the first ref of the raster plan when the top logo outranks every site icon', () => {
    expect(firstRasterRefBeforeIcons(page({ images: [headerLogo] }))).toBe('img:0');
    expect(rasterPlan(rankLogoCandidates(page({ images: [headerLogo], links: [touch] })).candidates)[0]).toBe('img:0');
  });

  it('is null when the icons, not yet looked up, could still win (a weak fallback mark)', () => {
    const alone = page({ images: [banner] });
    expect(rankLogoCandidates(alone).candidates[0]!.signals).toContain('fallback');
    expect(firstRasterRefBeforeIcons(alone)).toBeNull();
    // ...and they would: with an apple-touch icon the plan is empty.
    expect(rasterPlan(rankLogoCandidates(page({ images: [banner], links: [touch] })).candidates)).toEqual([]);
  });

  it('is null without a logo candidate', () => {
    expect(firstRasterRefBeforeIcons(page({}))).toBeNull();
    expect(firstRasterRefBeforeIcons(page({ links: [touch] }))).toBeNull();
  });
});

describe('a page with no logo above the bar', () => {
  it("reports its best own-looking element weakly, never a stranger's", () => {
    // A wide banner named after the brand: too large for a logo, but the only mark the page has.
    const banner = img(0, { src: 'https://www.acme-roasters.example/img/acmeroasters-top.jpg', box: { x: 0, y: 0, width: 900, height: 150 } });
    const partner = img(1, { src: 'https://cdn.example/partner-logo.png', className: 'partner', box: { x: 0, y: 900, width: 120, height: 40 } });
    const { candidates } = rankLogoCandidates(page({ images: [banner, partner] }));
    expect(candidates.map((c) => c.url)).toEqual([banner.src]);
    expect(candidates[0]!.signals).toContain('fallback');
    expect(rankLogoCandidates(page({ images: [partner] })).candidates).toEqual([]);
  });

  it("reads someone else's logo in the words of other languages (Referenzen, partenaires, klanten, Zahlungsarten)", () => {
    for (const hint of ['section.referenzen', 'div.nos-partenaires', 'ul.onze-klanten', 'div.zahlungsarten', 'div.patrocinadores']) {
      const stranger = img(0, { src: 'https://cdn.example/logo-x.png', ancestorHints: hint, box: { x: 0, y: 900, width: 120, height: 40 } });
      expect(rankLogoCandidates(page({ images: [stranger] })).candidates.find((c) => c.url === stranger.src)?.signals ?? ['third-party-context']).toContain(
        'third-party-context',
      );
    }
  });

  it('adds no fallback when a logo passes the bar', () => {
    const banner = img(0, { src: 'https://www.acme-roasters.example/img/acmeroasters-top.jpg', box: { x: 0, y: 0, width: 900, height: 150 } });
    const logo = img(1, { region: 'header', className: 'logo', linkHref: PAGE, box: { x: 0, y: 10, width: 120, height: 40 } });
    expect(rankLogoCandidates(page({ images: [banner, logo] })).candidates.map((c) => c.refs[0])).toEqual(['img:1']);
  });
});

describe('declared logos', () => {
  it('reads microdata itemprop=logo on img, link and meta, against <base href>', () => {
    const html = `<html><head><base href="https://cdn.acme.example/site/"></head><body>
      <div itemscope itemtype="https://schema.org/Organization"><img itemprop="logo" src="img/logo.png?v=1&amp;x=2" alt="Acme"><link itemprop="logo url" href="/brand.svg"></div>
      <img itemprop="image" src="photo.jpg"><meta itemprop='logo' content='https://acme.example/m.png'></body></html>`;
    expect(microdataLogos(html, PAGE)).toEqual([
      'https://cdn.acme.example/site/img/logo.png?v=1&x=2',
      'https://cdn.acme.example/brand.svg',
      'https://acme.example/m.png',
    ]);
  });

  it('reads JSON-LD logos as string, ImageObject, array, publisher.logo and @id references', () => {
    const yoast = {
      '@graph': [
        { '@type': 'Organization', '@id': 'https://a.example/#org', logo: { '@id': 'https://a.example/#logo' } },
        { '@type': 'ImageObject', '@id': 'https://a.example/#logo', url: 'https://a.example/logo.png' },
      ],
    };
    const article = {
      '@type': 'NewsArticle',
      publisher: { '@type': 'Organization', name: 'Daily', logo: { '@type': 'ImageObject', url: 'https://d.example/l.svg' } },
    };
    const list = { '@type': 'Corporation', logo: ['https://c.example/1.png', { contentUrl: 'https://c.example/2.png' }] };
    const facts = organizationFacts({ jsonLd: [JSON.stringify(yoast), JSON.stringify(article), JSON.stringify(list)] });
    expect(facts.logos).toEqual(['https://a.example/logo.png', 'https://d.example/l.svg', 'https://c.example/1.png', 'https://c.example/2.png']);
  });

  it('makes a microdata logo a declared candidate that merges with the image showing it', () => {
    const html = '<header><a href="/"><img itemprop="logo" src="https://www.acme-roasters.example/logo.png"></a></header>';
    const images = [
      img(0, { region: 'header', linkHref: PAGE, src: 'https://www.acme-roasters.example/logo.png', box: { x: 0, y: 0, width: 120, height: 40 } }),
    ];
    const [first] = rankLogoCandidates(page({ html, images })).candidates;
    expect(first).toMatchObject({ url: 'https://www.acme-roasters.example/logo.png', refs: ['img:0', 'url:https://www.acme-roasters.example/logo.png'] });
    expect(first!.signals).toContain('confirmed');
  });
});

describe('site icons', () => {
  const manifest = JSON.stringify({
    name: 'Acme',
    icons: [
      { src: 'icons/192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/512.png', sizes: '512x512', purpose: 'maskable' },
      { src: 'javascript:alert(1)' },
      { sizes: '1x1' },
    ],
  });

  it('parses a manifest, absolute against its own URL, dropping what is not an http(s) icon', () => {
    expect(parseManifestIcons(manifest, 'https://www.acme.example/static/site.webmanifest', 30).map((i) => i.src)).toEqual([
      'https://www.acme.example/static/icons/192.png',
      'https://www.acme.example/static/icons/512.png',
    ]);
    expect(parseManifestIcons('<html>', 'https://x.example/m.json', 30)).toEqual([]);
  });

  it('fills icon_url from the manifest and favicon_url from the probe when the page declares none', () => {
    const lookup: NonNullable<Snapshot['siteIcons']> = {
      manifest: parseManifestIcons(manifest, 'https://www.acme.example/site.webmanifest', 30),
      favicon: 'https://www.acme.example/favicon.ico',
    };
    expect(siteIcons([], [], lookup)).toEqual({
      favicon_url: 'https://www.acme.example/favicon.ico',
      icon_url: 'https://www.acme.example/icons/512.png',
      apple_touch_icon: null,
      mask_icon: null,
    });
  });

  it('knows every rel=icon variant', () => {
    const links = [
      link('shortcut icon', 'https://a.example/favicon.ico'),
      link('icon', 'https://a.example/icon-32.png', '32x32'),
      link('icon', 'https://a.example/icon-192.png', '192x192'),
      link('mask-icon', 'https://a.example/pinned.svg'),
      link('apple-touch-icon-precomposed', 'https://a.example/touch-120.png', '120x120'),
      link('apple-touch-icon', 'https://a.example/touch-180.png', '180x180'),
    ];
    expect(siteIcons(links, [])).toEqual({
      favicon_url: 'https://a.example/favicon.ico',
      icon_url: 'https://a.example/icon-192.png',
      apple_touch_icon: 'https://a.example/touch-180.png',
      mask_icon: 'https://a.example/pinned.svg',
    });
  });
});

describe('strips of look-alike images', () => {
  const row = (y: number, first: Partial<Image>): Image[] => [
    img(0, { box: { x: 20, y, width: 160, height: 60 }, ...first }),
    img(1, { src: 'https://www.acme-roasters.example/i/slice-2.jpg', box: { x: 200, y, width: 160, height: 60 } }),
    img(2, { src: 'https://www.acme-roasters.example/i/slice-3.jpg', box: { x: 380, y, width: 160, height: 60 } }),
  ];
  const logo = { src: 'https://www.acme-roasters.example/i/logo.gif', className: 'logo', region: 'other' as const, linkHref: PAGE };

  it("penalises a row of three in the page's body, whatever the first one's name", () => {
    // logo-attr, home-link and left would pass the bar; the strip's -3 takes it below, and a strip member is no fallback
    expect(rankLogoCandidates(page({ images: row(900, logo) })).candidates.find((c) => c.url === logo.src)).toBeUndefined();
  });

  it("does not count a header of sliced images in the page's top band as a strip (a table layout, no header element)", () => {
    const top = rankLogoCandidates(page({ images: row(10, logo) })).candidates[0];
    expect(top?.url).toBe(logo.src);
    expect(top?.signals).not.toContain('partner-strip');
    expect(top?.signals).toEqual(expect.arrayContaining(['logo-attr', 'home-link', 'top']));
  });
});
