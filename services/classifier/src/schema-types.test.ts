import { describe, expect, it } from 'vitest';
import { extractSchemaTypes, iabHintForSchemaType, schemaTypeHints } from './schema-types.ts';
import { iabTaxonomy } from './taxonomy.ts';

describe('schema.org type mapping', () => {
  it('maps trades to their IAB category', () => {
    expect(iabHintForSchemaType('Restaurant')?.iabId).toBe('IAB8-9');
    expect(iabHintForSchemaType('SoftwareApplication')?.iabId).toBe('IAB19');
    expect(iabHintForSchemaType('https://schema.org/Dentist')?.iabId).toBe('IAB7-17');
    expect(iabHintForSchemaType('schema:Hotel')?.iabId).toBe('IAB20-18');
    expect(iabHintForSchemaType('RealEstateAgent')?.iabId).toBe('IAB21-3');
  });

  it('ignores types that say nothing about the topic', () => {
    for (const t of ['Organization', 'WebSite', 'WebPage', 'LocalBusiness', 'Article', 'BreadcrumbList', 'constructor', 'toString']) {
      expect(iabHintForSchemaType(t)).toBeUndefined();
    }
  });

  it('only maps to ids that exist in the taxonomy', () => {
    const tax = iabTaxonomy();
    for (const t of ['Restaurant', 'Winery', 'Church', 'Synagogue', 'MotorcycleDealer', 'Preschool', 'VeterinaryCare', 'DaySpa', 'Store']) {
      expect(tax.byId.has(iabHintForSchemaType(t)!.iabId), t).toBe(true);
    }
  });

  it('collects types from JSON-LD graphs, arrays, nested objects, invalid JSON and microdata', () => {
    const jsonLd = [
      '{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"x"},{"@type":["Restaurant","LocalBusiness"],"address":{"@type":"PostalAddress"}}]}',
      '{"@context":"https://schema.org","@type":"Hotel","name":"Lakeside",}',
      'not json at all',
    ];
    const html = '<div itemscope itemtype="http://schema.org/AutoDealer"><span>Cars</span></div>';
    expect(extractSchemaTypes(jsonLd, html).sort()).toEqual(['AutoDealer', 'Hotel', 'LocalBusiness', 'PostalAddress', 'Restaurant', 'WebSite']);
  });

  it('puts specific trades ahead of broad hints', () => {
    expect(schemaTypeHints(['Product', 'WebSite', 'JewelryStore']).map((h) => h.iabId)).toEqual(['IAB18-4', 'IAB22']);
  });
});
