import { describe, expect, it } from 'vitest';
import type { Anchor } from '../contracts/index.ts';
import { hasRelToken, isExternalLink, isHomeLink, isSiteChrome, mailtoAddresses, sameSitePageLinks, withoutFragment } from './links.ts';

const anchor = (href: string, over: Partial<Anchor> = {}): Anchor => ({
  href,
  text: '',
  title: null,
  ariaLabel: null,
  rel: null,
  region: 'main',
  box: null,
  visible: true,
  ...over,
});

describe('links', () => {
  it('site chrome is header, nav and footer', () => {
    expect(['header', 'nav', 'footer'].every((r) => isSiteChrome(r as Anchor['region']))).toBe(true);
    expect(isSiteChrome('main')).toBe(false);
    expect(isSiteChrome('other')).toBe(false);
  });

  it('rel tokens are whole words', () => {
    expect(hasRelToken('noopener ME', 'me')).toBe(true);
    expect(hasRelToken('home', 'me')).toBe(false);
    expect(hasRelToken(null, 'me')).toBe(false);
  });

  it('mailto: addresses are decoded and split, the query dropped', () => {
    expect(mailtoAddresses('mailto:info%40acme.com?subject=Hi')).toEqual(['info@acme.com']);
    expect(mailtoAddresses('MAILTO:a@acme.com,b@acme.com;c@acme.com')).toEqual(['a@acme.com', 'b@acme.com', 'c@acme.com']);
    expect(mailtoAddresses('mailto:bad%zz@acme.com')).toEqual(['bad%zz@acme.com']);
    expect(mailtoAddresses('https://acme.com/mailto:x@y.com')).toEqual([]);
  });

  it('home links: the root, index files, locale roots and a hosting prefix; www aside', () => {
    expect(isHomeLink('https://www.acme.com/', 'https://acme.com/about')).toBe(true);
    expect(isHomeLink('https://acme.com/index.html', 'https://acme.com/about')).toBe(true);
    expect(isHomeLink('https://acme.com/en-us/', 'https://acme.com/en-us/about')).toBe(true);
    expect(isHomeLink('https://acme.com/shop/', 'https://acme.com/shop/cart')).toBe(true);
    expect(isHomeLink('https://acme.com/about', 'https://acme.com/')).toBe(false);
    expect(isHomeLink('https://other.com/', 'https://acme.com/')).toBe(false);
    expect(isHomeLink(null, 'https://acme.com/')).toBe(false);
  });

  it('external links are http(s) to another site (registrable domain)', () => {
    expect(isExternalLink('https://twitter.com/acme', 'https://acme.com/')).toBe(true);
    expect(isExternalLink('https://www.acme.com/x', 'https://acme.com/')).toBe(false);
    expect(isExternalLink('mailto:x@other.com', 'https://acme.com/')).toBe(false);
    // another host of the same site is not another site; addresses compare whole
    expect(isExternalLink('https://www.acme.co.uk/', 'https://shop.acme.co.uk/en/')).toBe(false);
    expect(isExternalLink('https://acme.com/', 'https://blog.acme.com/')).toBe(false);
    expect(isExternalLink('https://acme.co.uk/', 'https://acme.com/')).toBe(true);
    expect(isExternalLink('http://10.0.0.2/', 'http://127.0.0.2/')).toBe(true);
    expect(isExternalLink('http://127.0.0.2:8080/', 'http://127.0.0.2/')).toBe(false);
  });

  it('same-site page links: same registrable domain, no self link, no files, no fragment', () => {
    const links = sameSitePageLinks(
      [
        anchor('https://shop.acme.co.uk/contact#form'),
        anchor('https://acme.co.uk/#top'),
        anchor('https://acme.co.uk/brochure.PDF'),
        anchor('https://other.co.uk/contact'),
        anchor('mailto:info@acme.co.uk'),
        anchor('https://acme.co.uk/terms?x=1.pdf'),
      ],
      'https://acme.co.uk/',
      'acme.co.uk',
    );
    expect(links.map((l) => l.url)).toEqual(['https://shop.acme.co.uk/contact', 'https://acme.co.uk/terms?x=1.pdf']);
    expect(withoutFragment('https://a.com/x#y')).toBe('https://a.com/x');
  });
});
