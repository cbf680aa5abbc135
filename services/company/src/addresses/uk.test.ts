import { describe, expect, it } from 'vitest';
import { findUkAddresses } from './uk.ts';

const lines = (text: string): string[] => findUkAddresses(text).map((m) => m.line);

describe('UK addresses in text', () => {
  it('walks back from the postcode over town and county lines', () => {
    expect(lines('Write to us:\n6-8 Hazelwood Rd\nCudham\nSevenoaks\nKent\nTN14 7QU\nCall us: (01689) 859622')).toEqual([
      '6-8 Hazelwood Rd, Cudham, Sevenoaks, Kent, TN14 7QU',
    ]);
    expect(lines('Callows Audio\nPO BOX 377\nSittingbourne\nKent\nME97BZ')).toEqual(['PO BOX 377, Sittingbourne, Kent, ME97BZ']);
    expect(lines('Registered Office: Economic House, PO Box 9, High Street, Coventry CV1 5QN.')).toEqual([
      'Economic House, PO Box 9, High Street, Coventry CV1 5QN',
    ]);
  });

  it("stops at a review widget's rating line, whose number is no house number", () => {
    expect(lines('★★★★★ 4.9 from 612 Google reviews\nKingsmere Dental\n3 Quarry Street\nGuildford GU1 3UY')).toEqual(['3 Quarry Street, Guildford GU1 3UY']);
  });
});
