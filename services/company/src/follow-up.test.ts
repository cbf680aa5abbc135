import { describe, expect, it } from 'vitest';
import type { Anchor } from '@enrich/shared/contracts';
import { chooseFollowUpLinks, pageKindOf } from './follow-up.ts';

const a = (href: string, text: string): Anchor => ({ href, text, title: null, ariaLabel: null, rel: null, region: 'nav', box: null, visible: true });
const anchors = [
  a('https://acme.com/', 'Home'),
  a('https://acme.com/products', 'Products'),
  a('https://acme.com/about-us/', 'About'),
  a('https://acme.com/contact.html', 'Get in touch'),
  a('https://acme.com/impressum', 'Impressum'),
  a('https://acme.com/legal/terms-of-service', 'Terms'),
  a('https://twitter.com/acme/contact', 'Contact'),
  a(
    'https://acme.com/blog/how-to-contact-your-bank-about-fraud-and-other-long-stories',
    'How to contact your bank about fraud and other long stories that wrap',
  ),
];

describe('follow-up links', () => {
  it('classifies pages by path and label', () => {
    expect(pageKindOf(anchors[2]!)).toBe('about');
    expect(pageKindOf(anchors[3]!)).toBe('contact');
    expect(pageKindOf(anchors[4]!)).toBe('imprint');
    expect(pageKindOf(anchors[5]!)).toBe('terms');
    expect(pageKindOf(a('https://acme.com/p/123', 'Privacy Policy'))).toBe('terms');
    expect(pageKindOf(anchors[1]!)).toBeNull();
    // Other languages' words for the same pages.
    expect(pageKindOf(a('https://acme.de/agb', 'AGB'))).toBe('terms');
    expect(pageKindOf(a('https://acme.fr/cgv', 'Conditions générales de vente'))).toBe('terms');
    expect(pageKindOf(a('https://acme.pt/contato', 'Fale conosco'))).toBe('contact');
    expect(pageKindOf(a('https://acme.pl/o-nas', 'O nas'))).toBe('about');
    expect(pageKindOf(a('https://acme.se/om-oss', 'Om oss'))).toBe('about');
    expect(pageKindOf(a('https://acme.es/sobre-nosotros', 'Sobre nosotros'))).toBe('about');
    expect(pageKindOf(a('https://www.sample.co.jp/p/12', '会社概要'))).toBe('about');
    expect(pageKindOf(a('https://www.sample.co.jp/p/13', 'お問い合わせ'))).toBe('contact');
    expect(pageKindOf(a('https://www.sample.co.jp/p/14', '特定商取引法に基づく表記'))).toBe('imprint');
    expect(pageKindOf(a('https://www.sample.cn/p/15', '联系我们'))).toBe('contact');
  });

  it('picks the contact page first when contact data is missing, and never other sites', () => {
    expect(chooseFollowUpLinks(anchors, 'https://acme.com/', 'acme.com', { legalName: false, contact: true })).toEqual([
      'https://acme.com/contact.html',
      'https://acme.com/impressum',
    ]);
  });

  it('picks the imprint first when only the legal name is missing, then the terms', () => {
    expect(chooseFollowUpLinks(anchors, 'https://acme.com/', 'acme.com', { legalName: true, contact: false })).toEqual([
      'https://acme.com/impressum',
      'https://acme.com/legal/terms-of-service',
    ]);
  });

  it('without an imprint, follows the terms before the about page for a legal name', () => {
    const noImprint = anchors.filter((x) => !x.href.endsWith('/impressum'));
    expect(chooseFollowUpLinks(noImprint, 'https://acme.com/', 'acme.com', { legalName: true, contact: false })).toEqual([
      'https://acme.com/legal/terms-of-service',
      'https://acme.com/about-us/',
    ]);
    expect(chooseFollowUpLinks(noImprint, 'https://acme.com/', 'acme.com', { legalName: true, contact: true })).toEqual([
      'https://acme.com/contact.html',
      'https://acme.com/legal/terms-of-service',
    ]);
  });

  it('follows nothing when nothing is missing', () => {
    expect(chooseFollowUpLinks(anchors, 'https://acme.com/', 'acme.com', { legalName: false, contact: false })).toEqual([]);
  });
});
