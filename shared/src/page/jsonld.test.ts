import { describe, expect, it } from 'vitest';
import { jsonLdTypes, parseJsonLd, parseJsonLdBlocks, scanJsonLdStrings } from './jsonld.ts';

describe('parseJsonLd: the documented tolerance', () => {
  it('reads valid JSON as is, arrays and @graph containers included', () => {
    expect(parseJsonLd('{"@type":"Organization","name":"Acme"}')).toEqual({ '@type': 'Organization', name: 'Acme' });
    expect(parseJsonLd('[{"@type":"WebSite"},{"@type":"Organization"}]')).toHaveLength(2);
    expect(parseJsonLd('{"@graph":[{"@type":"Organization","name":"A"}]}')).toEqual({ '@graph': [{ '@type': 'Organization', name: 'A' }] });
  });

  it('drops an HTML comment or a CDATA wrapper around the block', () => {
    expect(parseJsonLd('<!-- {"@type": "Organization", "name": "Acme",} -->')).toEqual({ '@type': 'Organization', name: 'Acme' });
    expect(parseJsonLd('//<![CDATA[\n{"name": "Acme"}\n//]]>')).toEqual({ name: 'Acme' });
    // MediaWiki (every Wikipedia article) writes the wrapper bare; some templates inside a block comment.
    expect(parseJsonLd('\n<![CDATA[\n{"@type":"Article","name":"New Zealand"}\n]]>\n')).toEqual({ '@type': 'Article', name: 'New Zealand' });
    expect(parseJsonLd('/*<![CDATA[*/{"name": "Acme"}/*]]>*/')).toEqual({ name: 'Acme' });
    expect(parseJsonLd('{"sameAs": [["a"]]}')).toEqual({ sameAs: [['a']] });
  });

  it('reads raw control characters inside strings as one space', () => {
    expect(parseJsonLd('{"@type": "Organization", "name": "Acme\nWidgets"}')).toEqual({ '@type': 'Organization', name: 'Acme Widgets' });
    expect(parseJsonLd('{"name": "Acme\t\r\nWidgets"}')).toEqual({ name: 'Acme Widgets' });
  });

  it('drops trailing commas before } and ]', () => {
    expect(parseJsonLd('{"sameAs": ["a", "b",], "name": "Acme",}')).toEqual({ sameAs: ['a', 'b'], name: 'Acme' });
  });

  it('reads objects written one after another as an array', () => {
    expect(parseJsonLd('{"@type":"WebSite","name":"A"} {"@type":"Organization","name":"B"}')).toHaveLength(2);
  });

  it('gives undefined for anything else, and parseJsonLdBlocks leaves it out', () => {
    expect(parseJsonLd('{not json at all')).toBeUndefined();
    expect(parseJsonLdBlocks(['{not json', '{"name":"A"}'])).toEqual([{ name: 'A' }]);
  });
});

describe('JSON-LD helpers', () => {
  it('jsonLdTypes reads one type or a list, strings only', () => {
    expect(jsonLdTypes({ '@type': 'Dentist' })).toEqual(['Dentist']);
    expect(jsonLdTypes({ '@type': ['Organization', 3, 'Brand'] })).toEqual(['Organization', 'Brand']);
    expect(jsonLdTypes({ name: 'x' })).toEqual([]);
  });

  it('scanJsonLdStrings finds values in page order, even in broken blocks, within the bounds', () => {
    const blocks = ['{"description": "First \\u0026 best", "x": {"description": "no"', '{"description": "Third", }'];
    expect(scanJsonLdStrings(blocks, 'description', { minLength: 3, maxLength: 600, limit: 5 })).toEqual(['First & best', 'Third']);
    expect(scanJsonLdStrings(blocks, 'description', { minLength: 3, maxLength: 600, limit: 1 })).toEqual(['First & best']);
    expect(scanJsonLdStrings(blocks, 'description', { minLength: 3, maxLength: 8, limit: 5 })).toEqual(['Third']);
    expect(scanJsonLdStrings(['{"headline": "bad \\escape"}'], 'headline', { minLength: 3, maxLength: 600, limit: 1 })).toEqual(['bad \\escape']);
  });
});
