import { describe, expect, it } from 'vitest';
import { extractTextAddresses } from './index.ts';

describe('addresses of New Zealand, South Africa, India, Japan, Ireland, Brazil and Hong Kong', () => {
  it("reads a New Zealand rural delivery line with any town, and stops at a phone line ('Ph …') above the next address", () => {
    expect(extractTextAddresses('Warkworth office\n1245 Kaipara Coast Highway, RD 4, Warkworth 0984')).toEqual([
      '1245 Kaipara Coast Highway, RD 4, Warkworth 0984',
    ]);
    expect(
      extractTextAddresses(
        'Cellar door: 412 Waipara Valley Road, RD 2, Amberley 7482\nPh 03 300 0714\nOffice & deliveries\nUnit 3, 27 Sir William Pickering Drive\nBurnside, Christchurch 8053',
      ),
    ).toEqual(['412 Waipara Valley Road, RD 2, Amberley 7482', 'Unit 3, 27 Sir William Pickering Drive, Burnside, Christchurch 8053']);
  });

  it('reads each after a main town, region or prefecture, or an Eircode', () => {
    expect(extractTextAddresses('Auckland office\nLevel 5, 110 Symonds Street\nGrafton, Auckland 1010')).toEqual([
      'Level 5, 110 Symonds Street, Grafton, Auckland 1010',
    ]);
    // The town and the code on lines of their own, as a list writes them.
    expect(extractTextAddresses('Head office\n2nd Floor, The Boulevard\nSearle Street\nWoodstock\nCape Town\n7925\n+27 21 447 3018')).toEqual([
      '2nd Floor, The Boulevard, Searle Street, Woodstock, Cape Town, 7925',
    ]);
    expect(extractTextAddresses('Registered office: B-118, Okhla Industrial Area Phase I, New Delhi - 110020')).toEqual([
      'B-118, Okhla Industrial Area Phase I, New Delhi - 110020',
    ]);
    expect(extractTextAddresses('No. 42, 2nd Floor, 80 Feet Road, Koramangala, Bengaluru, Karnataka 560034')).toEqual([
      'No. 42, 2nd Floor, 80 Feet Road, Koramangala, Bengaluru, Karnataka 560034',
    ]);
    expect(extractTextAddresses('Tokyo office\n7F Aoyama Crest Building, 2-11-3 Kita-Aoyama, Minato-ku, Tokyo 107-0061, Japan')).toEqual([
      '7F Aoyama Crest Building, 2-11-3 Kita-Aoyama, Minato-ku, Tokyo 107-0061, Japan',
    ]);
    // A building named without a building's word ("The Courtyard") is not read as the start.
    expect(extractTextAddresses('Find us\nThe Courtyard, 25 Fitzwilliam Place, Dublin 2, D02 T292')).toEqual(['25 Fitzwilliam Place, Dublin 2, D02 T292']);
  });

  it('reads Brazil after its state and CEP, and Hong Kong from its room or floor to "Hong Kong" or "Kowloon"', () => {
    expect(extractTextAddresses('São Paulo — head office\nAv. Paulista, 1578 - Bela Vista\nSão Paulo - SP\n01310-200\n+55 11 5555-0143')).toEqual([
      'Av. Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200',
    ]);
    expect(extractTextAddresses('Rio de Janeiro\nRua da Assembleia, 10, Sala 3201 - Centro\nRio de Janeiro - RJ, 20011-901')).toEqual([
      'Rua da Assembleia, 10, Sala 3201 - Centro, Rio de Janeiro - RJ, 20011-901',
    ]);
    expect(extractTextAddresses('Head Office\nRoom 1203, 12/F, Tower 2\nLippo Centre\n89 Queensway, Admiralty\nHong Kong\nTel: +852 2555 0168')).toEqual([
      'Room 1203, 12/F, Tower 2, Lippo Centre, 89 Queensway, Admiralty, Hong Kong',
    ]);
    expect(extractTextAddresses('Kowloon office: Unit 805, 8/F, Silvercord Tower 1, 30 Canton Road, Tsim Sha Tsui, Kowloon, Hong Kong')).toEqual([
      'Unit 805, 8/F, Silvercord Tower 1, 30 Canton Road, Tsim Sha Tsui, Kowloon, Hong Kong',
    ]);
    // No room, flat, unit or floor: a place, not an address; an address the organisation left is not its own.
    expect(extractTextAddresses('We have offices in Hong Kong, Kowloon and Taipei.')).toEqual([]);
    expect(
      extractTextAddresses('New address\nBefore January 2025 our office was at 18/F, Wing On House, 71 Des Voeux Road Central, Central, Hong Kong.'),
    ).toEqual([]);
    expect(extractTextAddresses('Our São Paulo team left Rua Augusta, 1508 - Consolação, São Paulo - SP, 01304-001 in May.')).toEqual([]);
  });

  it('takes no year on the line after a town, nor a number that is no postcode', () => {
    expect(extractTextAddresses('Proudly made in Cape Town\n2024\nAll rights reserved')).toEqual([]);
    expect(extractTextAddresses('Order reference D02 T292 shipped')).toEqual([]);
  });
});

describe('an address given for another organisation', () => {
  it('is left out when the sentence that gives it names a complaints body, a venue, a partner or a carrier', () => {
    expect(extractTextAddresses('If we cannot resolve your complaint, you may refer it to the Legal Ombudsman, PO Box 6167, Slough, SL1 0EH.')).toEqual([]);
    expect(extractTextAddresses("We're sponsoring DataConf. Venue: Moscone Center West, 800 Howard Street, San Francisco, CA 94103")).toEqual([]);
    expect(
      extractTextAddresses('Undelivered parcels may be collected from the BlueLine Express Hub, No. 14, Peenya Industrial Area, Bengaluru - 560058'),
    ).toEqual([]);
  });

  it('keeps the organisation’s own address in such a sentence, and every address on lines of its own', () => {
    expect(extractTextAddresses('For complaints, please write to us at 221B Baker Street, London NW1 6XE.')).toEqual(['221B Baker Street, London NW1 6XE']);
    expect(extractTextAddresses('Complaints\n221B Baker Street\nLondon NW1 6XE')).toEqual(['221B Baker Street, London NW1 6XE']);
  });
});
