import { describe, expect, it } from 'vitest';
import { findUsAddresses } from './us.ts';

const lines = (text: string): string[] => findUsAddresses(text).map((m) => m.line);

describe('US addresses in text', () => {
  it('reads one-line and multi-line addresses, PO boxes and glued state/ZIP', () => {
    expect(lines('Visit us: 1723 North Halsted, Chicago, Illinois 60614 today')).toEqual(['1723 North Halsted, Chicago, Illinois 60614']);
    expect(lines('Farmington Office\n4801 N. Butler Ave\nSuite 12101\nFarmington, NM87401\nPhone: 505-326-1111')).toEqual([
      '4801 N. Butler Ave, Suite 12101, Farmington, NM 87401',
    ]);
    expect(lines('Mailing Address:\nP.O. Box 3830\nFarmington, NM 87499\nPhone: 505-326-1111')).toEqual(['P.O. Box 3830, Farmington, NM 87499']);
    expect(lines('555 N Commons Drive, Aurora, IL. 60504')).toEqual(['555 N Commons Drive, Aurora, IL. 60504']);
  });

  it('skips a copyright year in front of the street number', () => {
    expect(lines('© 2009 Aiyara Thai Restaurant | Authentic Thai Food, 5 Catoctin Circle SE Leesburg, VA 20175')).toEqual([
      '5 Catoctin Circle SE Leesburg, VA 20175',
    ]);
  });

  it('keeps the office-centre line written above the street', () => {
    expect(lines('Latin America\nDoral Corporate Centre II\n3750 NW 87th Avenue\nSuite 700\nMiami, Florida 33178\nPhone: (305) 500-9328')).toEqual([
      'Doral Corporate Centre II, 3750 NW 87th Avenue, Suite 700, Miami, Florida 33178',
    ]);
    // Only a line that is nothing but the centre's name, right above a street that begins its line.
    expect(lines('San Dimas Civic Center\nCity Hall is located at 245 East Bonita Avenue, San Dimas CA 91773')).toEqual([
      '245 East Bonita Avenue, San Dimas CA 91773',
    ]);
  });

  it('ignores numbers that are not addresses', () => {
    expect(lines('Call 800-330-8247 or order 12 plates for $99.')).toEqual([]);
  });
});
