import { describe, expect, it } from 'vitest';
import { extractTextAddresses } from './index.ts';

describe('addresses of New Zealand, South Africa, India, Japan and Ireland', () => {
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
