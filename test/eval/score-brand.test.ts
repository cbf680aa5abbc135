import { describe, expect, it } from 'vitest';
import type { BrandData } from '@enrich/shared/contracts';
import { colorsMatch, scoreBrand, summarise, twitterHandle } from './score-brand.ts';

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
