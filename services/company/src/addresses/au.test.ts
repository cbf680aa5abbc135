import { describe, expect, it } from 'vitest';
import { findAustralianAddresses } from './au.ts';

const lines = (text: string): string[] => findAustralianAddresses(text).map((m) => m.line);

describe('Australian addresses in text', () => {
  it('reads level/street, suburb, state and postcode', () => {
    expect(lines('Head office: Level 5, 123 George St, Sydney NSW 2000, Australia')).toEqual(['Level 5, 123 George St, Sydney NSW 2000, Australia']);
    expect(lines('FinCar Pty Ltd\n31 Kitchen Road\nDandenong VIC 3175')).toEqual(['31 Kitchen Road, Dandenong VIC 3175']);
  });
});
