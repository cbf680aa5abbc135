/**
 * Addresses of the European countries the other scanners leave out, written street first and postcode
 * before the town: four-digit postcodes (Austria, Switzerland, Belgium, Denmark, Norway, Luxembourg,
 * Hungary, Slovenia), "00-590" (Poland), "1250-096" (Portugal), "111 51" (Sweden, Czechia, Slovakia,
 * Greece), and the five-digit ones of Finland, Italy and Spain whose street the German scanner does
 * not know. "Bahnhofstrasse 10, CH-8001 Zürich", "ul. Marszałkowska 10\n00-590 Warszawa".
 *
 * A bare postcode and town is no address here: four digits before a capitalised word are too common
 * ("2024 Acme", "1000 Products"), so the street must be named by a street word of its language
 * (Gasse, gatan, vej, rue, via, calle, ul., rua, katu, utca, ...) next to its house number.
 */
import { scanAnchors, type AddressMatch } from './scan.ts';

// An optional country prefix, the postcode, then the town (up to three more words or joiners).
const ANCHOR =
  /(?<![\p{L}\p{N}-])(?:(?:CH|A|AT|B|BE|DK|N|NO|L|LU|H|HU|SI|FL|PL|S|SE|CZ|SK|P|PT|FI|FIN|I|IT|E|ES|GR)-)?(?:\d{4}|\d{2}-\d{3}|\d{4}-\d{3}|\d{3}[ \u00a0]\d{2}|\d{5})[ \t]+\p{Lu}[\p{L}'’.]+(?:[ \t-](?:am|an der|bei|ob|im|sur|sous|en|de|del|di|\p{Lu}[\p{L}'’.]*))*/gu;

/** A street word as written lower-case inside a compound or line, or capitalised at its start ("Straße", "Rue"). */
const words = (list: readonly string[]): string => `(?:${list.map((w) => `[${w[0]}${w[0]!.toUpperCase()}]${w.slice(1)}`).join('|')})`;

// Street words written after the name ("Bahnhofstrasse", "Kärntner Straße", "Drottninggatan", "Nørregade", "Mannerheimintie").
const SUFFIX = words([
  'stra(?:ß|ss)e',
  'str\\.',
  'gasse',
  'weg',
  'platz',
  'allee',
  'ring',
  'gata',
  'gatan',
  'vägen',
  'väg',
  'gränd',
  'torg',
  'gade',
  'vej',
  'plads',
  'gate',
  'gaten',
  'veien',
  'vei',
  'plassen',
  'straat',
  'laan',
  'plein',
  'tie',
  'katu',
  'kuja',
  'utca',
  'út',
  'tér',
  'ulica',
  'ulice',
  'třída',
  'náměstí',
  'cesta',
]);
// Street words written before the name ("rue de la Loi 16", "Via Roma 12", "ul. Marszałkowska 10", "Avenida da Liberdade 10").
const PREFIX = words([
  'rue',
  'avenue',
  'av\\.',
  'boulevard',
  'chemin',
  'place',
  'quai',
  'via',
  'viale',
  'piazza',
  'corso',
  'largo',
  'calle',
  'avda\\.?',
  'avenida',
  'paseo',
  'plaza',
  'carrer',
  'rua',
  'travessa',
  'praça',
  'ul\\.',
  'ulica',
  'al\\.',
  'aleja',
  'plac',
]);
const STREET_START = new RegExp(
  [
    // A name ending in a street word (glued or not), then the number.
    String.raw`\p{Lu}[\p{L}.'’-]*(?:\s+[\p{L}.'’-]+){0,3}?\s?${SUFFIX}\s+\d{1,4}\s?[a-zA-Z]?(?:\s?[-/]\s?\d{1,4}[a-z]?)?(?![\p{L}\p{N}])`,
    // A street word, the name, then the number.
    String.raw`(?<![\p{L}])${PREFIX}\s+(?:[\p{L}.'’-]+,?\s+){0,4}?\d{1,4}\s?[a-zA-Z]?(?![\p{L}\p{N}])`,
    // The number first: "12 rue de la Paix", "10, avenue Louise".
    String.raw`(?<![\p{L}\p{N}])\d{1,4}\s?[a-zA-Z]?,?\s+${PREFIX}\s+[\p{L}.'’-]+`,
  ].join('|'),
  'u',
);

export function findEuropeanAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: STREET_START, maxLines: 2, allowBare: false });
}
