import { describe, expect, it } from 'vitest';
import { findGermanAddresses } from './de.ts';

const lines = (text: string): string[] => findGermanAddresses(text).map((m) => m.line);

describe('German addresses in text', () => {
  it('reads street + number then PLZ + town', () => {
    expect(lines('Beispiel GmbH\nMusterstraße 12\n10115 Berlin\nTelefon: 030 123456')).toEqual(['Musterstraße 12, 10115 Berlin']);
    expect(lines('Sitz: Unter den Linden 77, 10117 Berlin, Deutschland')).toEqual(['Unter den Linden 77, 10117 Berlin, Deutschland']);
  });

  it('does not take a five-digit number followed by a word on the next line', () => {
    expect(lines('Order 87499\nPhone support')).toEqual([]);
  });
});
