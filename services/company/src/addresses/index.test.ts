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

  it("leaves out an address the prose gives after another organisation's name, one the organisation moved from, and a form's sample", () => {
    const page = [
      'Harwick Lowe LLP, 1200 Market Street, Philadelphia, PA 19107',
      'Complaints go to the Pennsylvania Board of Accountancy Review, 2601 North Third Street, Harrisburg, PA 17110, which is independent of us.',
      'Our data protection officer is DataSafe Consulting GmbH, Hansaring 12, 50670 Cologne, reachable by post.',
      'In March our Denver team moved out of 1755 Blake Street, Denver, CO 80202 into the new office.',
      'Visit Harwick Lowe, 88 Walnut Street, Philadelphia, PA 19106 for the archive.',
      'Meetings are by appointment at Our Philadelphia Office, 40 Arch Street, Philadelphia, PA 19106 only.',
      'Business address: 123 Main St, Anytown, PA 12345',
    ].join('\n');
    expect(extractTextAddresses(page, 'harwicklowe')).toEqual([
      '1200 Market Street, Philadelphia, PA 19107',
      '88 Walnut Street, Philadelphia, PA 19106',
      '40 Arch Street, Philadelphia, PA 19106',
    ]);
    // Without the site's label, a name before the address is not judged (the site's own could be it).
    expect(extractTextAddresses(page)).toContain('Hansaring 12, 50670 Cologne');
  });

  it("leaves out the address of a web agency's credit, a landlord's, a franchisor's, a regulator's, a registered agent's and a possessed place", () => {
    const page = [
      'Visit our showroom at 1420 Elm Street, Suite 200, Dallas, TX 75201.',
      'Studio Portfolio Website design & development by Pixelmoor Studio · 2208 E 6th St, Austin, TX 78702',
      'That same year we installed an evaporator built by our friends at Green Mountain Evaporator Works (55 Depot St, St. Johnsbury, VT 05819). It works.',
      'Each salon is independently owned. Franchise enquiries: Bright Paws Franchising LLC, 4400 Peachtree Industrial Blvd, Suite 300, Norcross, GA 30071',
      'Outfitter licensing is overseen by the Montana Outfitter Licensing Board, 1400 Broadway St, Helena, MT 59620.',
      'Our registered agent for service of process is Treasure State Registered Agents, Inc., 101 N Last Chance Gulch, Suite 4, Helena, MT 59601',
      'Monthly passes are issued at their management office, 1500-1066 West Hastings St, Vancouver, BC V6E 3X1',
      "For reference, Prairieline's head office is at 2300 Industrial Rd, Regina, SK S4P 3B1.",
      'Please note our old booking office at 14 Fore Street, Penzance, TR18 2BP closed in October.',
      "We're exhibiting on stand C41 at Packaging Innovations Live, 4–5 March 2027, at the Meridian Exhibition Centre, 1 Dockside Way, London, E16 2QF.",
      'If we cannot resolve a complaint between us within eight weeks, you can write to the scheme at 3 Carlisle Place, Warrington, WA1 1QJ, quoting our name.',
    ].join('\n');
    expect(extractTextAddresses(page, 'madisonforkoutfitters')).toEqual(['1420 Elm Street, Suite 200, Dallas, TX 75201']);
    // A date before the address is no house number: the street starts after it.
    expect(extractTextAddresses('Opening on 5 March 2027 at the new shop, 1 Dockside Way, London, E16 2QF.')).toEqual(['1 Dockside Way, London, E16 2QF']);
  });
});
