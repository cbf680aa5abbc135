import { describe, expect, it } from 'vitest';
import { findFrenchAddresses } from './fr.ts';

const lines = (text: string): string[] => findFrenchAddresses(text).map((m) => m.line);

describe('French addresses in text', () => {
  it('reads number + street type, then code postal + town', () => {
    expect(lines('Siège social : 12 rue de la Paix, 75002 Paris, France')).toEqual(['12 rue de la Paix, 75002 Paris, France']);
    expect(lines('Exemple SAS\n5 bis avenue Foch\n69006 Lyon Cedex\nTél : 04 00 00 00 00')).toEqual(['5 bis avenue Foch, 69006 Lyon Cedex']);
  });
});
