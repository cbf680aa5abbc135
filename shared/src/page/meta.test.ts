import { describe, expect, it } from 'vitest';
import type { MetaTag } from '../contracts/index.ts';
import { metaContent, metaContentFromHtml, metaContents, metaHttpEquiv } from './meta.ts';

const tag = (over: Partial<MetaTag>): MetaTag => ({ name: null, property: null, itemprop: null, httpEquiv: null, content: '', ...over });
const snapshot = {
  meta: [
    tag({ property: 'og:site_name', content: '  ' }),
    tag({ name: 'Description', content: 'First' }),
    tag({ property: 'og:site_name', content: ' Acme ' }),
    tag({ itemprop: 'description', content: 'Second' }),
    tag({ httpEquiv: 'Content-Language', content: 'de-CH' }),
  ],
};

describe('meta readers', () => {
  it('metaContent: the first tag of the first key with content, name/property/itemprop case-insensitively', () => {
    expect(metaContent(snapshot, 'og:site_name')).toBeNull();
    expect(metaContent(snapshot, 'og:site_name', 'DESCRIPTION')).toBe('First');
    expect(metaContent(snapshot, 'missing', 'description')).toBe('First');
    expect(metaContent(snapshot, 'missing')).toBeNull();
  });

  it('metaContents: every matching tag in page order, as written', () => {
    expect(metaContents(snapshot, 'og:site_name', 'description')).toEqual(['  ', 'First', ' Acme ', 'Second']);
  });

  it('metaHttpEquiv reads http-equiv tags only', () => {
    expect(metaHttpEquiv(snapshot, 'content-language')).toBe('de-CH');
    expect(metaHttpEquiv(snapshot, 'description')).toBeNull();
  });

  it('metaContentFromHtml reads content or value of a tag the meta list lost', () => {
    expect(metaContentFromHtml('<meta name="twitter:site" value="@WashingtonPost"/>', 'twitter:site')).toBe('@WashingtonPost');
    expect(metaContentFromHtml("<meta content='@acme' name=twitter:site>", 'twitter:site')).toBe('@acme');
    expect(metaContentFromHtml('<meta name="twitterXsite" content="@no">', 'twitter.site')).toBeNull();
    expect(metaContentFromHtml('<meta name="description" content="x">', 'twitter:site')).toBeNull();
  });
});
