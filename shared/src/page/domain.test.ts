import { describe, expect, it } from 'vitest';
import { domainLabel, isSameSite, registrableDomain } from './domain.ts';

describe('registrable domain', () => {
  it('finds the registrable domain, second-level country domains included', () => {
    expect(registrableDomain('https://www.shop.acme.co.uk/x')).toBe('acme.co.uk');
    expect(registrableDomain('http://fincar.com.au/')).toBe('fincar.com.au');
    expect(registrableDomain('https://help.agilezen.com/a')).toBe('agilezen.com');
    expect(domainLabel('acme.co.uk')).toBe('acme');
    expect(isSameSite('https://acme.com/contact', 'acme.com')).toBe(true);
    expect(isSameSite('https://facebook.com/acme', 'acme.com')).toBe(false);
  });
});

describe('domainLabel', () => {
  it("is the registrable domain's first label, from a URL, a host or a domain", () => {
    expect(domainLabel('https://www.acme.co.uk/pricing')).toBe('acme');
    expect(domainLabel('https://shop.acme.com')).toBe('acme');
    expect(domainLabel('www2.acme.io')).toBe('acme');
    expect(domainLabel('http://[bad')).toBe('');
    expect(domainLabel('')).toBe('');
  });
});
