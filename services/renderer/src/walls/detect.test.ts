/**
 * The wall rules on facts, for the signals the browser fixtures (test/e2e/walls.test.ts) do not
 * each show: header-only verdicts, the vendor signals that must NOT be enough alone, and the names
 * of content types and statuses.
 */
import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { detectWall, notHtml, type PageFacts } from './detect.ts';

const normal: PageFacts = {
  url: 'https://shop.example/',
  status: 200,
  statusText: 'OK',
  headers: { 'content-type': 'text/html' },
  title: 'Shop',
  text: 'Welcome to our shop. '.repeat(100),
  textLength: 2100,
  links: 40,
  fields: 0,
  present: [],
  scripts: '',
  frames: [],
  urls: [],
};
const facts = (over: Partial<PageFacts>): PageFacts => ({ ...normal, ...over });
const wall = (over: Partial<PageFacts>) => detectWall(facts(over), STATUS_CODES);

describe('bot challenges by header', () => {
  it('x-amzn-waf-action: captcha is AWS WAF, whatever the page says', () => {
    expect(wall({ status: 405, headers: { 'x-amzn-waf-action': 'captcha' } })?.message).toBe(
      'The site answered with a bot challenge (AWS WAF: x-amzn-waf-action: captcha) instead of its page; it cannot be enriched automatically',
    );
  });
  it('x-datadome with 403 is DataDome; x-datadome on a 200 page is just a protected site', () => {
    expect(wall({ status: 403, headers: { 'x-datadome': 'protected' } })?.vendor).toBe('DataDome');
    expect(wall({ headers: { 'x-datadome': 'protected' } })).toBeNull();
  });
  it('Akamai needs its title with its reference or its server, not the title alone', () => {
    expect(
      wall({ status: 403, title: 'Access Denied', headers: { server: 'AkamaiGHost' }, text: "You don't have permission to access this server." })?.message,
    ).toMatch(/^The site blocked the automated browser \(Akamai "Access Denied"\)/);
    expect(wall({ status: 403, title: 'Access Denied', text: 'Please log in.', textLength: 14 })?.kind).toBe('http_error');
  });
});

describe('signals that are not enough alone', () => {
  it('Cloudflare challenge script on a 200 page without the challenge title is a page that talks about it', () => {
    expect(wall({ scripts: 'console.log("window._cf_chl_opt")' })).toBeNull();
    expect(wall({ scripts: 'window._cf_chl_opt = {}', status: 403 })?.vendor).toBe('Cloudflare');
  });
  it('an Incapsula incident ID on a long page is quoted, not met', () => {
    expect(wall({ text: `Request unsuccessful. Incapsula incident ID: 123 ${'x'.repeat(700)}`, textLength: 760 })).toBeNull();
    expect(wall({ text: 'Request unsuccessful. Incapsula incident ID: 123', textLength: 49 })?.vendor).toBe('Imperva/Incapsula');
  });
  it('a CAPTCHA widget on a page with fields or links is a form, on a bare page a wall', () => {
    const bare = { present: ['.cf-turnstile'], text: 'Verify you are human', textLength: 20, links: 0 };
    expect(wall(bare)?.message).toBe('The site answered with a CAPTCHA (Cloudflare Turnstile) instead of its page; it cannot be enriched automatically');
    expect(wall({ ...bare, fields: 2 })).toBeNull();
    expect(wall({ ...bare, links: 12 })).toBeNull();
    expect(wall({ ...bare, text: 'Subscribe to our newsletter', title: 'News' })).toBeNull();
  });
  it('parking words need a short page; a provider needs less than 3000 characters', () => {
    expect(wall({ text: 'This domain may be for sale', textLength: 27, links: 3 })?.message).toBe(
      'The domain is parked (parking page, for sale) and has no site to enrich',
    );
    expect(wall({ text: 'This domain may be for sale', textLength: 4000 })).toBeNull();
    for (const text of [
      'Diese Domain steht zum Verkauf',
      'Ce nom de domaine est à vendre',
      'Este dominio está a la venta',
      'Questo dominio è in vendita',
      'Dit domein is te koop',
    ])
      expect(wall({ text, textLength: text.length, links: 2 })?.message).toBe('The domain is parked (parking page, for sale) and has no site to enrich');
    expect(wall({ urls: ['https://www.bodis.com/parking?x=1'], text: 'Related links', textLength: 13 })?.message).toBe(
      'The domain is parked (Bodis parking page) and has no site to enrich',
    );
  });
});

describe('HTTP statuses', () => {
  it.each([
    [401, 'The target answered HTTP 401 Unauthorized at https://shop.example/; the page needs a login'],
    [403, 'The target answered HTTP 403 Forbidden at https://shop.example/; the site refuses access to this page'],
    [429, 'The target answered HTTP 429 Too Many Requests at https://shop.example/; the site is limiting requests; try again later'],
    [503, 'The target answered HTTP 503 Service Unavailable at https://shop.example/; the site itself is failing; try again later'],
    [418, "The target answered HTTP 418 I'm a Teapot at https://shop.example/; the page is an error page"],
  ])('%i', (status, message) => {
    expect(wall({ status, statusText: '' })?.message).toBe(message);
  });
  it('2xx and 3xx pass', () => {
    expect(wall({ status: 203 })).toBeNull();
  });
});

describe('content types', () => {
  it.each([
    ['application/pdf', 'The URL is a PDF document (application/pdf), not a web page'],
    ['image/svg+xml', 'The URL is an image (image/svg+xml), not a web page'],
    ['application/ld+json; charset=utf-8', 'The URL is a JSON document (application/ld+json), not a web page'],
    ['application/rss+xml', 'The URL is a news feed (application/rss+xml), not a web page'],
    ['text/xml', 'The URL is an XML document (text/xml), not a web page'],
    ['text/plain; charset=utf-8', 'The URL is a plain-text file (text/plain), not a web page'],
    ['application/x-unknown', 'The URL is a file (application/x-unknown), not a web page'],
  ])('%s', (type, message) => {
    expect(notHtml(type)?.message).toBe(message);
  });
  it('HTML, XHTML and a missing type are pages', () => {
    expect(notHtml('text/html; charset=utf-8')).toBeNull();
    expect(notHtml('application/xhtml+xml')).toBeNull();
    expect(notHtml(undefined)).toBeNull();
  });
});
