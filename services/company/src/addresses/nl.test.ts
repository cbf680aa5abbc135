import { describe, expect, it } from 'vitest';
import { findDutchAddresses } from './nl.ts';

const lines = (text: string): string[] => findDutchAddresses(text).map((m) => m.line);

describe('Dutch addresses in text', () => {
  it('reads street + number then postcode (4 digits, 2 letters) + town', () => {
    expect(lines('Bezoekadres: Keizersgracht 123, 1015 CJ Amsterdam')).toEqual(['Keizersgracht 123, 1015 CJ Amsterdam']);
    expect(lines('Voorbeeld B.V.\nPostbus 1234\n3000 AB Rotterdam\nNederland')).toEqual(['Postbus 1234, 3000 AB Rotterdam, Nederland']);
  });
});
