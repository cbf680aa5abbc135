import { describe, expect, it } from 'vitest';
import { findEuropeanAddresses } from './eu.ts';
import { extractTextAddresses } from './index.ts';

const lines = (text: string): string[] => findEuropeanAddresses(text).map((m) => m.line);

describe('European addresses in text', () => {
  it.each([
    ['Bahnhofstrasse 10\n8001 Zürich', 'Bahnhofstrasse 10, 8001 Zürich'],
    ['Sitz: Bahnhofstrasse 10, CH-8001 Zürich', 'Bahnhofstrasse 10, CH-8001 Zürich'],
    ['Kärntner Straße 5\n1010 Wien', 'Kärntner Straße 5, 1010 Wien'],
    ['Rue de la Loi 16\n1000 Bruxelles', 'Rue de la Loi 16, 1000 Bruxelles'],
    ['Nørregade 7\n1165 København K', 'Nørregade 7, 1165 København K'],
    ['Karl Johans gate 1\n0154 Oslo', 'Karl Johans gate 1, 0154 Oslo'],
    ['Drottninggatan 5\n111 51 Stockholm', 'Drottninggatan 5, 111 51 Stockholm'],
    ['ul. Marszałkowska 10\n00-590 Warszawa', 'ul. Marszałkowska 10, 00-590 Warszawa'],
    ['Avenida da Liberdade 10\n1250-096 Lisboa', 'Avenida da Liberdade 10, 1250-096 Lisboa'],
    ['Mannerheimintie 1\n00100 Helsinki', 'Mannerheimintie 1, 00100 Helsinki'],
    ['Alkotás utca 50, 1123 Budapest', 'Alkotás utca 50, 1123 Budapest'],
    ['Calle Mayor 5\n28013 Madrid', 'Calle Mayor 5, 28013 Madrid'],
  ])('reads %j', (text, line) => {
    expect(lines(text)).toEqual([line]);
  });

  it('needs a street word beside the house number: a postcode-like number before a word is no address', () => {
    expect(lines('© 2024 Acme Widgets\n1000 Products in stock')).toEqual([]);
    expect(lines('Since 1998\n2024 Summer Collection')).toEqual([]);
    expect(lines('Team Lund 5\n1234 Oslo')).toEqual([]);
  });

  it('adds nothing to an address another scanner reads', () => {
    expect(extractTextAddresses('Via Roma 12\n20121 Milano (MI)')).toEqual(['Via Roma 12, 20121 Milano']);
    expect(extractTextAddresses('500 Market Street, Suite 1000\nSan Francisco, CA 94105')).toEqual(['500 Market Street, Suite 1000, San Francisco, CA 94105']);
  });
});
