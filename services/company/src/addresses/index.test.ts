import { describe, expect, it } from 'vitest';
import { extractTextAddresses, formatPostalAddress, mergeAddresses } from './index.ts';

describe('addresses', () => {
  it('runs every country scanner and keeps the longest of overlapping finds', () => {
    const text = 'Offices\n2150 Fir Street, Vancouver, BC V6J 3B5\n221B Baker Street, London NW1 6XE\nMusterstraße 12, 10115 Berlin';
    expect(extractTextAddresses(text)).toEqual([
      '2150 Fir Street, Vancouver, BC V6J 3B5',
      '221B Baker Street, London NW1 6XE',
      'Musterstraße 12, 10115 Berlin',
    ]);
  });

  it('reads a street line that stands alone, and only where no address with a town or postcode is near', () => {
    expect(extractTextAddresses('Visit our showroom\n1391 Smizer Mill Road\nOpen Monday to Friday')).toEqual(['1391 Smizer Mill Road']);
    expect(extractTextAddresses('Head office\n45 Oak Avenue, Suite 200\nCall us')).toEqual(['45 Oak Avenue, Suite 200']);
    // a street line of a full address stays in it, and is not read twice
    expect(extractTextAddresses('Our office\n123 Main St.\nSpringfield, IL 62701')).toEqual(['123 Main St., Springfield, IL 62701']);
    // inside a sentence, or with no street suffix, it is no address
    expect(extractTextAddresses('We opened 3 new stores on Main Street this year.')).toEqual([]);
    expect(extractTextAddresses('Since 1998\n25 Years of Service')).toEqual([]);
  });

  it('formats PostalAddress fields in the order of the country', () => {
    expect(
      formatPostalAddress({
        streetAddress: '1 Main St',
        postOfficeBoxNumber: '',
        addressLocality: 'Springfield',
        addressRegion: 'IL',
        postalCode: '62701',
        addressCountry: 'US',
      }),
    ).toBe('1 Main St, Springfield, IL 62701');
    expect(
      formatPostalAddress({
        streetAddress: 'Musterstraße 12',
        postOfficeBoxNumber: '',
        addressLocality: 'Berlin',
        addressRegion: '',
        postalCode: '10115',
        addressCountry: 'DE',
      }),
    ).toBe('Musterstraße 12, 10115 Berlin, DE');
    expect(
      formatPostalAddress({
        streetAddress: ' 10 Downing  Street\n',
        postOfficeBoxNumber: '',
        addressLocality: 'London',
        addressRegion: '',
        postalCode: 'SW1A 2AA',
        addressCountry: 'United Kingdom',
      }),
    ).toBe('10 Downing Street, London, SW1A 2AA, United Kingdom');
  });

  it('merges duplicates written with other abbreviations, case or punctuation, keeping the fuller line', () => {
    expect(
      mergeAddresses([
        '8765 Cariboo Pl, Burnaby, BC V3N 4T2',
        '8765 CARIBOO PLACE, Burnaby, BC  V3N 4T2',
        '1 Main Street, Springfield, IL 62701',
        '1 Main St., Springfield, IL 62701, USA',
      ]),
    ).toEqual(['8765 Cariboo Pl, Burnaby, BC V3N 4T2', '1 Main Street, Springfield, IL 62701']);
  });

  it("writes a footer's separators between the parts as commas", () => {
    expect(extractTextAddresses('Acme GmbH · Musterstraße 12 · 10115 Berlin · Tel. 030 1234')).toEqual(['Musterstraße 12, 10115 Berlin']);
    expect(extractTextAddresses('Acme SAS – 12 rue de la Paix – 75002 Paris')).toEqual(['12 rue de la Paix, 75002 Paris']);
    expect(extractTextAddresses('Musterstraße 12 | 10115 Berlin')).toEqual(['Musterstraße 12, 10115 Berlin']);
  });

  it('merges a German street written with "Straße", "Strasse" or "Str." at the end of a compound', () => {
    expect(mergeAddresses(['Musterstraße 12, 10115 Berlin', 'Musterstr. 12, 10115 Berlin', 'Musterstrasse 12, 10115 Berlin, Deutschland'])).toEqual([
      'Musterstraße 12, 10115 Berlin',
    ]);
  });

  it("leaves out the host's and the web agency's address a legal notice gives", () => {
    const notice = 'Éditeur : Boulangerie Martin SARL, 12 rue de la Paix, 75002 Paris\n\nHébergement : Hébergeur Exemple SAS\n2 rue Kellermann\n59100 Roubaix';
    expect(extractTextAddresses(notice)).toEqual(['12 rue de la Paix, 75002 Paris']);
    expect(extractTextAddresses('Anbieter: Muster GmbH, Musterstraße 12, 10115 Berlin\nWebdesign: Pixelwerk, Hauptstraße 3, 80331 München')).toEqual([
      'Musterstraße 12, 10115 Berlin',
    ]);
  });
});
