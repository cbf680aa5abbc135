/**
 * Addresses of New Zealand, South Africa, India, Japan (written in Latin letters) and Ireland; of Brazil
 * and Hong Kong below them. Each
 * anchor is a postal code where it is hard to mistake: after a main town or region of the country
 * (or before the country's name), and for Ireland an Eircode; the street is found walking back, as
 * for every other country (scan.ts). The place names are the countries' main towns and their
 * regions, states and prefectures: geography, not any page's words.
 */
import { scanAnchors, type AddressMatch } from './scan.ts';

const alternation = (names: readonly string[]): string => `(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;

const NZ_TOWNS = alternation([
  'Auckland',
  'Wellington',
  'Christchurch',
  'Hamilton',
  'Tauranga',
  'Napier',
  'Hastings',
  'Dunedin',
  'Palmerston North',
  'Nelson',
  'Rotorua',
  'New Plymouth',
  'Whangārei',
  'Whangarei',
  'Invercargill',
  'Whanganui',
  'Wanganui',
  'Gisborne',
  'Blenheim',
  'Timaru',
  'Queenstown',
  'Taupō',
  'Taupo',
  'Masterton',
  'Levin',
  'Ashburton',
  'Oamaru',
  'Greymouth',
  'Wānaka',
  'Wanaka',
  'Porirua',
  'Lower Hutt',
  'Upper Hutt',
  'Cambridge',
  'Te Awamutu',
  'Pukekohe',
  'Rangiora',
  'Rolleston',
  'Whakatāne',
  'Whakatane',
  'Paraparaumu',
]);
const ZA_TOWNS = alternation([
  'Johannesburg',
  'Cape Town',
  'Durban',
  'Pretoria',
  'Port Elizabeth',
  'Gqeberha',
  'Bloemfontein',
  'East London',
  'Pietermaritzburg',
  'Polokwane',
  'Mbombela',
  'Nelspruit',
  'Kimberley',
  'Rustenburg',
  'Stellenbosch',
  'Paarl',
  'George',
  'Sandton',
  'Centurion',
  'Midrand',
  'Umhlanga',
  'Randburg',
  'Roodepoort',
  'Soweto',
  'Somerset West',
  'Knysna',
  'Benoni',
  'Boksburg',
  'Germiston',
  'Kempton Park',
  'Bellville',
  'Durbanville',
  'Hermanus',
  'Ballito',
  'Potchefstroom',
  'Vereeniging',
  'Welkom',
  'Mthatha',
  'Upington',
  'Rosebank',
]);
const IN_REGIONS = alternation([
  'Andhra Pradesh',
  'Arunachal Pradesh',
  'Assam',
  'Bihar',
  'Chhattisgarh',
  'Goa',
  'Gujarat',
  'Haryana',
  'Himachal Pradesh',
  'Jharkhand',
  'Karnataka',
  'Kerala',
  'Madhya Pradesh',
  'Maharashtra',
  'Manipur',
  'Meghalaya',
  'Mizoram',
  'Nagaland',
  'Odisha',
  'Punjab',
  'Rajasthan',
  'Sikkim',
  'Tamil Nadu',
  'Telangana',
  'Tripura',
  'Uttar Pradesh',
  'Uttarakhand',
  'West Bengal',
  'Delhi',
  'New Delhi',
  'Chandigarh',
  'Puducherry',
  'Jammu',
  'Ladakh',
  'Mumbai',
  'Bengaluru',
  'Bangalore',
  'Chennai',
  'Kolkata',
  'Hyderabad',
  'Pune',
  'Ahmedabad',
  'Jaipur',
  'Lucknow',
  'Kochi',
  'Cochin',
  'Noida',
  'Gurugram',
  'Gurgaon',
  'Indore',
  'Bhopal',
  'Nagpur',
  'Surat',
  'Vadodara',
  'Coimbatore',
  'Thiruvananthapuram',
  'Visakhapatnam',
  'Mysuru',
  'Mysore',
  'Navi Mumbai',
  'Thane',
  'Pimpri-Chinchwad',
  'Ghaziabad',
  'Faridabad',
]);
const JP_PREFECTURES = alternation([
  'Hokkaido',
  'Aomori',
  'Iwate',
  'Miyagi',
  'Akita',
  'Yamagata',
  'Fukushima',
  'Ibaraki',
  'Tochigi',
  'Gunma',
  'Saitama',
  'Chiba',
  'Tokyo',
  'Kanagawa',
  'Niigata',
  'Toyama',
  'Ishikawa',
  'Fukui',
  'Yamanashi',
  'Nagano',
  'Gifu',
  'Shizuoka',
  'Aichi',
  'Mie',
  'Shiga',
  'Kyoto',
  'Osaka',
  'Hyogo',
  'Nara',
  'Wakayama',
  'Tottori',
  'Shimane',
  'Okayama',
  'Hiroshima',
  'Yamaguchi',
  'Tokushima',
  'Kagawa',
  'Ehime',
  'Kochi',
  'Fukuoka',
  'Saga',
  'Nagasaki',
  'Kumamoto',
  'Oita',
  'Miyazaki',
  'Kagoshima',
  'Okinawa',
  'Yokohama',
  'Kobe',
  'Nagoya',
  'Sapporo',
]);

// "Grafton, Auckland 1010", "Blenheim 7273, New Zealand"; "Cape Town, 7925", "Sandton, Johannesburg, 2196".
// The town and the code may be lines of their own ("Cape Town / 7925"), the code alone on its line.
const CODE_AFTER_TOWN = String.raw`(?:,?[ \t]+\d{4}|[ \t]*\n[ \t]*\d{4}(?=[ \t]*(?:\n|$)))`;
const NZ = new RegExp(`\\b(?:${NZ_TOWNS}${CODE_AFTER_TOWN}|\\d{4},?[ \\t]+New Zealand)\\b(?:,?[ \\t]*New Zealand\\b)?`, 'g');
const ZA = new RegExp(`\\b(?:${ZA_TOWNS}${CODE_AFTER_TOWN}|\\d{4},?[ \\t]+South Africa)\\b(?:,?[ \\t]*South Africa\\b)?`, 'g');
// "Bengaluru, Karnataka 560034", "Mumbai - 400013, Maharashtra", "New Delhi - 110020".
const IN = new RegExp(`\\b${IN_REGIONS}[ \\t]*[-–,]?[ \\t]*\\d{3}[ \\t]?\\d{3}(?!\\d)(?:,?[ \\t]*${IN_REGIONS})?(?:,?[ \\t]*India\\b)?`, 'g');
// "Minato-ku, Tokyo 107-0061, Japan".
const JP = new RegExp(`\\b${JP_PREFECTURES}(?:-(?:to|fu|ken))?,?[ \\t]+\\d{3}-\\d{4}\\b(?:,?[ \\t]*Japan\\b)?`, 'g');
// An Eircode: a routing key (a letter and two digits, or D6W) and four characters of its alphabet.
const IE = /(?<![\w-])(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ \t]?[AC-FHKNPRTV-Y0-9]{4}\b(?:,?[ \t]*Ireland\b)?/g;

// Where the street starts: a floor, unit or plot, a building's name, a number and a capitalised word, a box.
const STREET_START =
  /(?:\b(?:Level|Suite|Unit|Shop|Floor|Office(?:\s+No\.?)?|Plot|Flat|Block|Building|No\.)\s*[A-Z]?-?\d+\w*|\b\d{1,2}(?:st|nd|rd|th|F)\s+Floor\b|\b\d{1,2}F\b|\b[A-Z]-\d{1,4}\b|\b\d{1,5}[A-Za-z]?(?:[-/]\d{1,5})*,?\s+[A-Z][\w'’.-]*|\b(?:PO|P\.O\.|GPO)\s*Box\b|\bPrivate\s+Bag\b|\b(?:The\s+)?[A-Z][\w'’-]+\s+(?:House|Court|Building|Centre|Center|Tower|Plaza|Chambers|Park)\b)/;

const scan = (anchor: RegExp) => (text: string) => scanAnchors(text, anchor, { streetStart: STREET_START, maxLines: 5, allowBare: false });

// Brazil: a CEP (five digits, a hyphen, three) after the state's two letters ("São Paulo - SP, 01310-200",
// "Rio de Janeiro/RJ CEP 20011-901") or after "CEP"; the street opens with its type ("Av. Paulista, 1578").
const BR_STATES = 'AC|AL|AP|AM|BA|CE|DF|ES|GO|MA|MT|MS|MG|PA|PB|PR|PE|PI|RJ|RN|RS|RO|RR|SC|SP|SE|TO';
const BR = new RegExp(
  String.raw`(?:[-–/][ \t]*(?:${BR_STATES})\b[ \t]*[,–-]?\s*(?:CEP[ \t:]*)?|\bCEP[ \t:]*)\d{5}-\d{3}\b(?:,?[ \t]*(?:Brasil|Brazil)\b)?`,
  'g',
);
const BR_STREET_START = new RegExp(
  String.raw`\b(?:Av\.|Avenida|Rua|R\.|Alameda|Al\.|Praça|Travessa|Rodovia|Estrada|Largo|SHS|SCS|SBS|SAUS|SHN|SCN)[ \t]+(?:(?:da|do|das|dos|de)[ \t]+)?\p{Lu}`,
  'u',
);
export const findBrazilianAddresses = (text: string): AddressMatch[] => scanAnchors(text, BR, { streetStart: BR_STREET_START, maxLines: 5, allowBare: false });

// Hong Kong has no postcode: its addresses end in "Hong Kong", "Kowloon" or "New Territories" after a
// comma (or on a line of its own), and open with a room, flat, unit or floor ("Room 1203, 12/F, Tower 2,
// Lippo Centre, 89 Queensway, Admiralty, Hong Kong"), which must be found within the lines before:
// "offices in Hong Kong" is none.
const HK = /(?:,[ \t]*|[ \t]*\n[ \t]*)(?:Hong Kong|Kowloon|New Territories)(?:,[ \t]*Hong Kong)?(?:[ \t]+SAR)?(?=[ \t]*(?:$|\n|[,.;]))/g;
const HK_STREET_START = /\b(?:Room|Rm\.?|Flat|Unit|Suite|Shop|Office)[ \t]*[A-Z]?\d+\w*|\b\d{1,3}\/F\b/;
export const findHongKongAddresses = (text: string): AddressMatch[] => scanAnchors(text, HK, { streetStart: HK_STREET_START, maxLines: 4, allowBare: false });

// A rural delivery line: "1245 Kaipara Coast Highway, RD 4, Warkworth 0984" (RD and its number before the
// town and code; the town need not be one of the list's).
const NZ_RURAL = /\bR\.?D\.?[ \t]*\d{1,2},?(?:[ \t]+|[ \t]*\n[ \t]*)\p{Lu}[\p{L}'’-]+(?:[ \t]+\p{Lu}[\p{L}'’-]+)?,?[ \t]+\d{4}\b(?:,?[ \t]*New Zealand\b)?/gu;
export const findNewZealandAddresses = (text: string): AddressMatch[] => [...scan(NZ)(text), ...scan(NZ_RURAL)(text)];
export const findSouthAfricanAddresses: (text: string) => AddressMatch[] = scan(ZA);
export const findIndianAddresses: (text: string) => AddressMatch[] = scan(IN);
export const findJapaneseAddresses: (text: string) => AddressMatch[] = scan(JP);
export const findIrishAddresses: (text: string) => AddressMatch[] = scan(IE);
