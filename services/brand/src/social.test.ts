import { describe, expect, it } from 'vitest';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { analyzeSocialLinks, toProfile } from './social.ts';

describe('toProfile', () => {
  it.each([
    ['http://twitter.com/Acme?ref=footer', 'https://twitter.com/Acme'],
    ['https://x.com/acme', 'https://x.com/acme'],
    ['https://mobile.twitter.com/@acme/', 'https://twitter.com/acme'],
    ['https://www.linkedin.com/company/acme-inc/about/', 'https://www.linkedin.com/company/acme-inc'],
    ['https://uk.linkedin.com/company/acme', 'https://www.linkedin.com/company/acme'],
    ['https://github.com/acme/acme-sdk', 'https://github.com/acme'],
    ['https://m.facebook.com/AcmeHQ/', 'https://www.facebook.com/AcmeHQ'],
    ['https://www.facebook.com/profile.php?id=1234&ref=x', 'https://www.facebook.com/profile.php?id=1234'],
    ['https://instagram.com/acme.hq', 'https://www.instagram.com/acme.hq'],
    ['https://www.youtube.com/@AcmeTV', 'https://www.youtube.com/@AcmeTV'],
    ['https://youtube.com/channel/UC123abc', 'https://www.youtube.com/channel/UC123abc'],
  ])('%s -> %s', (href, url) => {
    expect(toProfile(href)?.url).toBe(url);
  });

  it.each([
    'https://twitter.com/intent/tweet?text=hi',
    'https://twitter.com/share?url=x',
    'https://twitter.com/home',
    'https://www.facebook.com/sharer/sharer.php?u=x',
    'https://www.facebook.com/',
    'https://www.linkedin.com/shareArticle?mini=true',
    'https://www.linkedin.com/',
    'https://www.linkedin.com/feed/',
    'https://www.youtube.com/watch?v=abc',
    'https://www.instagram.com/p/Cxyz/',
    'https://github.com/login',
    'https://example.com/twitter',
  ])('%s is no profile', (href) => {
    expect(toProfile(href)).toBeNull();
  });
});

describe('analyzeSocialLinks', () => {
  const URL_ = 'https://www.acme.io/blog/post';

  it('prefers JSON-LD sameAs, then footer links, and never share links', () => {
    const html = `<html><head><title>Post | Acme</title><script type="application/ld+json">{"@type":"Organization","name":"Acme","sameAs":["https://www.linkedin.com/company/acme","https://twitter.com/AcmeHQ"]}</script></head><body>
      <main><article><a href="https://twitter.com/intent/tweet?url=x">Tweet</a><a href="https://www.facebook.com/sharer/sharer.php?u=x">Share</a>
      <p>Quote from <a href="https://twitter.com/janedoe">@janedoe</a> and <a href="https://github.com/janedoe">her code</a></p></article></main>
      <footer><a href="https://twitter.com/acme_support">Support</a><a href="https://www.facebook.com/acmeio">Facebook</a><a href="https://www.instagram.com/acme/">IG</a><a href="https://www.youtube.com/@acme">YT</a></footer></body></html>`;
    expect(analyzeSocialLinks(snapshotFromHtml(html, URL_))).toEqual({
      twitter: 'https://twitter.com/AcmeHQ',
      linkedin: 'https://www.linkedin.com/company/acme',
      github: null,
      facebook: 'https://www.facebook.com/acmeio',
      instagram: 'https://www.instagram.com/acme',
      youtube: 'https://www.youtube.com/@acme',
    });
  });

  it('takes twitter:site for the publisher, not the author linked in the article', () => {
    const html = `<html><head><meta name="twitter:site" content="@arstechnica"><meta property="article:publisher" content="https://www.facebook.com/arstechnica"></head>
      <body><main><a href="https://twitter.com/authorname">author</a></main></body></html>`;
    const links = analyzeSocialLinks(snapshotFromHtml(html, 'https://arstechnica.com/a/b'));
    expect(links.twitter).toBe('https://twitter.com/arstechnica');
    expect(links.facebook).toBe('https://www.facebook.com/arstechnica');
  });

  it('reads twitter:site written with value=, and skips author links on articles', () => {
    const html = `<html><head><meta property="og:type" content="article"><meta name="twitter:site" value="@WashingtonPost"/></head>
      <body><div class="byline"><a href="https://twitter.com/@erinmcunningham">Erin</a></div></body></html>`;
    expect(analyzeSocialLinks(snapshotFromHtml(html, 'https://www.washingtonpost.com/world/x')).twitter).toBe('https://twitter.com/WashingtonPost');
    const noSite = html.replace(/<meta name="twitter:site"[^>]*>/, '');
    expect(analyzeSocialLinks(snapshotFromHtml(noSite, 'https://www.washingtonpost.com/world/x')).twitter).toBeNull();
  });

  it('drops an encoded trailing space from a handle', () => {
    expect(toProfile('http://twitter.com/ritzcarlton%20')?.url).toBe('https://twitter.com/ritzcarlton');
  });

  it('is all null when only generic and share links exist', () => {
    const html = `<html><body><footer><a href="https://www.facebook.com/">fb</a><a href="https://twitter.com/share">t</a><a href="https://linkedin.com/">in</a></footer></body></html>`;
    expect(Object.values(analyzeSocialLinks(snapshotFromHtml(html, URL_))).every((v) => v === null)).toBe(true);
  });
});
