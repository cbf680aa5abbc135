/** German addresses: "Musterstraße 12, 10115 Berlin", "Am Markt 3 · 80331 München". */
import { scanAnchors, type AddressMatch } from './scan.ts';

const ANCHOR =
  /\b(?:D-)?\d{5}[ \t]+[A-ZÄÖÜ][a-zäöüß]+(?:[ \t-](?:am|an der|im|a\.[ \t]?M\.|\/)?[ \t]?[A-ZÄÖÜ][a-zäöüß.]+)*(?:,?\s*(?:Deutschland|Germany)\b)?/g;
// Street name then house number: "Hauptstraße 5a", "Unter den Linden 77", "Am Markt 3".
const STREET_START =
  /[A-ZÄÖÜ][\wäöüß.-]*(?:\s+(?:[a-zäöüß]+|[A-ZÄÖÜ][\wäöüß.-]*)){0,3}?(?:stra(?:ß|ss)e|str\.|weg|platz|allee|gasse|ring|damm|ufer|chaussee|markt|steig|pfad|hof|berg|feld|graben|wall|kai|brücke|park|\s+[A-ZÄÖÜ][a-zäöüß]+)\s+\d{1,4}\s?[a-zA-Z]?(?:\s?[-/]\s?\d{1,4}[a-z]?)?\b/;

export function findGermanAddresses(text: string): AddressMatch[] {
  return scanAnchors(text, ANCHOR, { streetStart: STREET_START, maxLines: 2, allowBare: false });
}
