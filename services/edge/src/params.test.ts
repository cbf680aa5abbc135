import { describe, expect, it } from 'vitest';
import { BrandQuerySchema, ClassifyQuerySchema, EnrichQuerySchema, ScreenshotQuerySchema } from '@enrich/shared/contracts';
import { InvalidParameterError, UrlForbiddenError } from '@enrich/shared/errors';
import { domainOf, normalizeTargetUrl, parseQuery, parseRawQuery } from './params.ts';

describe('normalizeTargetUrl', () => {
  it.each([
    ['example.com', 'http://example.com/'],
    ['  https://Example.com/a?b=1  ', 'https://example.com/a?b=1'],
    ['example.com:8080/x', 'http://example.com:8080/x'],
    ['localhost:3000', 'http://localhost:3000/'],
    ['//cdn.example.com/p', 'http://cdn.example.com/p'],
    ['HTTP://EXAMPLE.COM', 'http://example.com/'],
    ['www.acme.test/path?next=http://x', 'http://www.acme.test/path?next=http://x'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeTargetUrl(input)).toBe(expected);
  });

  it.each(['ftp://example.com', 'javascript:alert(1)', 'file:///etc/passwd', 'mailto:a@b.com', 'data:text/html,hi'])('refuses %s as not http(s)', (input) => {
    expect(() => normalizeTargetUrl(input)).toThrow(UrlForbiddenError);
    expect(() => normalizeTargetUrl(input)).toThrow(/only http:\/\/ and https:\/\//);
  });

  it('refuses what is not a URL, naming the parameter', () => {
    expect(() => normalizeTargetUrl('http://exa mple.com')).toThrow(InvalidParameterError);
    expect(() => normalizeTargetUrl('http://')).toThrow(/Invalid query parameter "url"/);
  });

  it('refuses a URL that only passes 2048 characters once http:// is prepended', () => {
    const bare = `example.com/${'a'.repeat(2048 - 'example.com/'.length)}`;
    expect(bare.length).toBe(2048);
    expect(() => normalizeTargetUrl(bare)).toThrow(/2055 characters once normalised, allowed: at most 2048/);
  });
});

describe('parseRawQuery and parseQuery', () => {
  it('keeps repeated parameters so they can be refused', () => {
    expect(parseRawQuery('url=a&url=b&width=400')).toEqual({ url: ['a', 'b'], width: '400' });
    expect(() => parseQuery(ClassifyQuerySchema, parseRawQuery('url=a&url=b'))).toThrow('Repeated query parameter "url" (2 times): give each parameter once');
  });

  it('names unknown parameters and lists the accepted ones', () => {
    expect(() => parseQuery(ClassifyQuerySchema, parseRawQuery('url=a&width=400&colour=red'))).toThrow(
      'Unknown query parameters "width", "colour"; this endpoint accepts url',
    );
  });

  it('applies the defaults of the seed', () => {
    expect(parseQuery(EnrichQuerySchema, { url: 'acme.test' })).toEqual({
      url: 'acme.test',
      width: 1440,
      height: 900,
      format: 'jpeg',
      full_page: false,
      css: false,
      html: false,
      javascript: false,
      follow_links: false,
      maxAge: 86_400,
    });
  });

  const bounds: Array<[string, string, boolean]> = [
    ['width', '319', false],
    ['width', '320', true],
    ['width', '5000', true],
    ['width', '5001', false],
    ['width', '1e3', false],
    ['width', '-400', false],
    ['width', '400.5', false],
    ['height', '319', false],
    ['height', '320', true],
    ['height', '5000', true],
    ['height', '5001', false],
    ['screenshotColors', '1', false],
    ['screenshotColors', '2', true],
    ['screenshotColors', '12', true],
    ['screenshotColors', '13', false],
    ['format', 'jpeg', true],
    ['format', 'png', true],
    ['format', 'webp', true],
    ['format', 'gif', false],
    ['format', 'JPEG', false],
    ['full_page', 'true', true],
    ['full_page', '1', true],
    ['full_page', '0', true],
    ['full_page', 'FALSE', true],
    ['full_page', 'yes', false],
    ['css', 'false', true],
    ['html', '1', true],
    ['javascript', 'True', true],
    ['javascript', 'on', false],
  ];
  it.each(bounds)('/brand %s=%s accepted: %s', (name, value, ok) => {
    const run = () => parseQuery(BrandQuerySchema, { url: 'acme.test', [name]: value });
    if (ok) expect(run).not.toThrow();
    else expect(run).toThrow(new RegExp(`^Invalid query parameter "${name}": got "${value.replace(/[.+]/g, '\\$&')}", allowed: `));
  });

  it('parses the typed values', () => {
    expect(parseQuery(ScreenshotQuerySchema, { url: 'a', width: '320', height: '5000', format: 'webp', full_page: '1' })).toEqual({
      url: 'a',
      width: 320,
      height: 5000,
      format: 'webp',
      full_page: true,
      maxAge: 86_400,
    });
  });

  it('url: required, at most 2048 characters before normalisation', () => {
    expect(() => parseQuery(ClassifyQuerySchema, {})).toThrow('Missing query parameter "url": give an http:// or https:// URL');
    expect(() => parseQuery(ClassifyQuerySchema, { url: '   ' })).toThrow(/Invalid query parameter "url": got "   "/);
    expect(parseQuery(ClassifyQuerySchema, { url: 'a'.repeat(2048) }).url).toHaveLength(2048);
    expect(() => parseQuery(ClassifyQuerySchema, { url: 'a'.repeat(2049) })).toThrow(/\(2049 characters\), allowed: an http/);
  });

  it('reports every bad parameter at once', () => {
    expect(() => parseQuery(ScreenshotQuerySchema, { url: 'a', width: '10', format: 'bmp' })).toThrow(
      /"width".*; Invalid query parameter "format": got "bmp", allowed: jpeg, png or webp/,
    );
  });
});

describe('domainOf', () => {
  it('is the host without a leading www.', () => {
    expect(domainOf('https://www.acme.test/x')).toBe('acme.test');
    expect(domainOf('https://shop.acme.test/x')).toBe('shop.acme.test');
    expect(domainOf('http://wwwacme.test/')).toBe('wwwacme.test');
  });
});
