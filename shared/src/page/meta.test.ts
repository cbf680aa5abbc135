import { describe, expect, it } from 'vitest';
import type { MetaTag } from '../contracts/index.ts';
import { metaContent, metaContents, metaHttpEquiv } from './meta.ts';

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
});
