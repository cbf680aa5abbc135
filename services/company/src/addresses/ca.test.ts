import { describe, expect, it } from 'vitest';
import { findCanadianAddresses } from './ca.ts';

const lines = (text: string): string[] => findCanadianAddresses(text).map((m) => m.line);

describe('Canadian addresses in text', () => {
  it('reads the Quebec form: a comma after the number, a French street type and the province in brackets', () => {
    expect(findCanadianAddresses('Bureau de Montréal\n1250, boul. René-Lévesque Ouest, bureau 300\nMontréal (Québec) H3B 4W8').map((a) => a.line)).toEqual([
      '1250, boul. René-Lévesque Ouest, bureau 300, Montréal (Québec) H3B 4W8',
    ]);
  });

  it('reads province + postal code, across lines, with Canada between, or reversed', () => {
    expect(lines('2150 Fir Street, Vancouver, BC V6J 3B5')).toEqual(['2150 Fir Street, Vancouver, BC V6J 3B5']);
    expect(lines('McCain Foods Limited\n439 King Street West, Fifth Floor\nToronto, Ontario, Canada\nM5V 1K4\nTel: (416) 955-1700')).toEqual([
      '439 King Street West, Fifth Floor, Toronto, Ontario, Canada, M5V 1K4',
    ]);
    expect(lines('Contact Us\n101-1305 Welch St\nNorth Vancouver,\nV7P 1B3, BC.\nCanada')).toEqual([
      '101-1305 Welch St, North Vancouver, V7P 1B3, BC., Canada',
    ]);
  });
});
