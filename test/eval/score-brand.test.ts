import { describe, expect, it } from 'vitest';
import type { BrandData } from '@enrich/shared/contracts';
import { colorsMatch, knownLogoFound, scoreBrand, summarise, summariseHalves, twitterHandle } from './score-brand.ts';

const empty: BrandData = {
  colors: { brand_colors: [], screenshot_colors: [], code_colors: { css: [], html: [], javascript: [] } },
  fonts: { families: [], google_fonts: [], typekit: [] },
  logos: { primary: null, secondary: [], favicon_url: null, icon_url: null, apple_touch_icon: null },
  images: { og_image: '', twitter_image: '', assets: [], screenshot_url: '', screenshot_colors: [] },
  social_links: { twitter: null, linkedin: null, github: null, facebook: null, instagram: null, youtube: null },
};

describe('score-brand', () => {
  it('compares twitter handles across hosts and case', () => {
    expect(twitterHandle('https://x.com/@ArsTechnica?lang=en')).toBe('arstechnica');
    const out = { ...empty, social_links: { ...empty.social_links, twitter: 'https://x.com/CNET' } };
    const v = scoreBrand({ page_id: 'p', source: 'readability', url: 'u', domain: 'd', gt: { twitter: 'https://twitter.com/cnet' } }, out);
    expect(v['social.twitter']).toEqual({ found: true, correct: true });
  });

  it('accepts near brand colors and rejects different ones', () => {
    expect(colorsMatch('#E71D1D', '#E31B23')).toBe(true);
    expect(colorsMatch('#E71D1D', '#052962')).toBe(false);
  });

  it('marks fields without truth as not scorable, and missing output as not found', () => {
    const v = scoreBrand({ page_id: 'p', source: 'x', url: 'u', domain: 'd', gt: { brand_hex: '#012169' } }, empty);
    expect(v['brand_colors[0]']).toEqual({ found: false, correct: false });
    expect(v['social.twitter']).toEqual({ found: false, correct: null });
    const [twitter] = summarise([v]).filter((s) => s.field === 'social.twitter');
    expect(twitter).toEqual({ field: 'social.twitter', n: 1, found: 0, withTruth: 0, correct: 0 });
  });
});

describe('known logo or icon (labels)', () => {
  const label = { page_id: 'p', logos: ['http://www.acme.com//img/logo.png', 'https://cdn.acme.com/favicon.ico'], how: 'test' };
  const logos = (urls: Partial<BrandData['logos']>): BrandData['logos'] => ({ ...empty.logos, ...urls });

  it('finds a labelled URL in any logos field, whatever the scheme, port, www or doubled slashes', () => {
    expect(knownLogoFound(label, logos({ favicon_url: 'http://cdn.acme.com:8080/favicon.ico' }))).toBe(true);
    expect(knownLogoFound(label, logos({ primary: { url: 'https://acme.com/img/logo.png', source: 'header', score: 0.9, isSvg: false } }))).toBe(true);
    expect(knownLogoFound(label, logos({ secondary: [{ url: 'http://www.acme.com/img/logo%20.png', source: 'img', score: 0.5, isSvg: false }] }))).toBe(false);
  });

  it('does not score pages whose HTML names no logo', () => {
    expect(knownLogoFound({ ...label, logos: [] }, logos({}))).toBeNull();
    expect(knownLogoFound(undefined, logos({}))).toBeNull();
    expect(scoreBrand({ page_id: 'p', source: 'x', url: 'u', domain: 'd', gt: {} }, empty, label)['logos.known logo or icon']).toEqual({
      found: false,
      correct: false,
    });
  });

  it('sums per half', () => {
    const v = scoreBrand({ page_id: 'p', source: 'x', url: 'u', domain: 'd', gt: {} }, empty, label);
    const [known] = summariseHalves([{ half: 'validation', verdicts: v }]).filter((s) => s.field === 'logos.known logo or icon');
    expect(known?.validation).toMatchObject({ n: 1, withTruth: 1, correct: 0 });
    expect(known?.tuning).toMatchObject({ n: 0 });
  });
});
