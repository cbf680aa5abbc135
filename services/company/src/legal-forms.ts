/**
 * Legal-form suffixes of the major jurisdictions. A name that ends with one of them is very likely
 * the registered name of a company, so the legal-name extractor prefers it and finds it in free text.
 */

interface LegalForm {
  /** Regex source matching the suffix as written (dots and spaces optional where people drop them). */
  pattern: string;
  /** Short upper-case forms like "AG" or "AS" are words in other languages; they must match exactly. */
  caseSensitive: boolean;
}

const form = (pattern: string, caseSensitive = false): LegalForm => ({ pattern, caseSensitive });

// Longest first inside each family so "Pty Ltd" wins over "Ltd" and "GmbH & Co. KG" over "KG".
export const LEGAL_FORMS: readonly LegalForm[] = [
  // US / UK / Commonwealth
  form('Ltd\\.?\\s*Şti\\.?'),
  // Turkish capitals: the dotted İ is no upper-case "i" to the case-insensitive match.
  form('LTD\\.?\\s*ŞTİ\\.?', true),
  form('\\(Pty\\)\\s*Ltd\\.?'),
  form('Pty\\.?\\s*Ltd\\.?'),
  form('Pty\\.?\\s*Limited'),
  form('Pty\\.?'),
  form('Co\\.?,?\\s*Ltd\\.?'),
  form('Co\\.?,?\\s*Limited'),
  form('Incorporated'),
  form('Inc\\.?'),
  form('L\\.L\\.C\\.?'),
  form('LLC'),
  form('L\\.L\\.P\\.?'),
  form('LLLP'),
  form('LLP'),
  form('PLLC'),
  form('P\\.L\\.L\\.C\\.?'),
  form('P\\.C\\.'),
  form('P\\.A\\.', true),
  // A US national bank's charter ("Bank of America, N.A.", "Wells Fargo Bank, N.A."): only with its dots.
  form('N\\.A\\.', true),
  form('PC', true),
  form('L\\.P\\.'),
  form('LP', true),
  form('Ltd\\.?'),
  form('Limited'),
  form('PLC', true),
  form('plc', true),
  form('P\\.L\\.C\\.'),
  form('Corporation'),
  form('Corp\\.?'),
  form('Company'),
  form('Co\\.', true),
  form('CIC', true),
  // An Italian società semplice (a farm's "Società Agricola Poggio Ferrante S.S."), only with its dots.
  form('S\\.S\\.', true),
  // Not "DAC" (Irish designated activity company) nor a bare "JSC": an audio converter ("Topping D90 DAC") and
  // NASA's Johnson Space Center ("NASA JSC") would read as registered companies.
  form('CLG', true),
  // South Africa's non-profit and state-owned companies ("Thandeka Youth Sport NPC", "Eskom Holdings SOC Ltd").
  form('NPC', true),
  form('SOC\\s+Ltd', true),
  form('Teoranta'),
  // German-speaking
  form('GmbH\\s*&\\s*Co\\.?\\s*KGaA'),
  form('GmbH\\s*&\\s*Co\\.?\\s*KG'),
  form('AG\\s*&\\s*Co\\.?\\s*KG', true),
  // Partnerships of the liberal professions (law, tax, architecture): "Hallstein & Roder Rechtsanwälte PartG mbB".
  form('PartG\\s*mbB', true),
  form('PartG', true),
  form('gGmbH'),
  form('GmbH'),
  form('UG\\s*\\(haftungsbeschränkt\\)'),
  form('UG', true),
  form('KGaA', true),
  form('KG', true),
  form('OHG', true),
  // Austria's general partnership ("Huber & Steiner Sport OG"), a German cooperative ("Elbtaler Erzeugergemeinschaft eG").
  form('OG', true),
  form('eG', true),
  form('GbR', true),
  form('e\\.\\s?K\\.', true),
  form('e\\.\\s?V\\.', true),
  // Austria's registered sole trader ("eingetragenes Unternehmen"): "Haarmonie Wien e.U.".
  form('e\\.\\s?U\\.', true),
  form('AG', true),
  form('SE', true),
  // Romance languages
  form('S\\.A\\.\\s*de\\s*C\\.V\\.'),
  form('S\\.\\s?de\\s?R\\.\\s?L\\.(?:\\s*de\\s*C\\.V\\.)?'),
  form('S\\.A\\.S\\.', true),
  form('SAS', true),
  form('S\\.A\\.R\\.L\\.', true),
  form('SARL', true),
  form('Sàrl'),
  form('S\\.à\\s?r\\.l\\.'),
  form('EURL', true),
  // Professional, farming and property companies, cooperatives and the sole trader's "EI" (since 2022).
  form('SELARL', true),
  form('SELAS', true),
  form('SCOP', true),
  form('SCEA', true),
  form('GAEC', true),
  form('EARL', true),
  form('SCI', true),
  form('EI', true),
  form('SASU', true),
  form('SNC', true),
  // An Italian partnership names its partners after its form: "Mulino Antico S.n.c. di Esposito Gennaro & C.".
  form(String.raw`S\.n\.c\.(?:\s+di\s+[^,;\n]{1,60}?&\s*C\.)?`),
  form(String.raw`S\.a\.s\.(?:\s+di\s+[^,;\n]{1,60}?&\s*C\.)?`),
  // Third-sector bodies ("Fondazione Giacomo Valfredda ETS", "Associazione … ONLUS").
  form('ETS', true),
  form('ONLUS', true),
  form('ODV', true),
  form('APS', true),
  form('S\\.p\\.A\\.?'),
  form('SpA', true),
  // Italy's simplified S.r.l. ("società a responsabilità limitata semplificata") before the S.r.l.
  form('S\\.r\\.l\\.s\\.?'),
  form('Srls', true),
  form('S\\.r\\.l\\.?'),
  form('Srl', true),
  form('SRL', true),
  // Professional and labour companies, a single-member S.A., cooperatives with their region ("S. Coop. And.").
  form('S\\.L\\.P\\.', true),
  form('S\\.L\\.L\\.', true),
  form('S\\.A\\.U\\.', true),
  form(String.raw`S\.\s?Coop\.(?:\s?(?:And|Val|Gall|Mad)\.)?`, true),
  form('S\\.L\\.U\\.', true),
  form('S\\.L\\.', true),
  form('SL', true),
  form('S\\.A\\.', true),
  form('SA', true),
  form('Ltda\\.?'),
  form('EIRELI', true),
  // Peru's and Chile's one-owner company.
  form('E\\.I\\.R\\.L\\.', true),
  form('EIRL', true),
  form('S/A', true),
  form('Lda\\.?'),
  // Benelux
  form('B\\.V\\.', true),
  form('BV', true),
  form('N\\.V\\.', true),
  form('NV', true),
  form('BVBA', true),
  // Belgian non-profits and cooperatives.
  form('AISBL', true),
  form('ASBL', true),
  form('VZW', true),
  form('SCRL', true),
  form('SPRL', true),
  form('V\\.O\\.F\\.', true),
  form('VOF', true),
  // Nordic
  form('ASA', true),
  form('A/S', true),
  form('AS', true),
  form('AB', true),
  form('ApS', true),
  form('Oyj', true),
  form('Oy', true),
  form('hf\\.', true),
  form('ehf\\.?', true),
  form('I/S', true),
  form('K/S', true),
  // Baltic
  form('OÜ', true),
  form('SIA', true),
  form('UAB', true),
  // Central / Eastern Europe
  form('sp\\.\\s?z\\s?o\\.\\s?o\\.'),
  form('sp\\.\\s?k\\.'),
  form('sp\\.\\s?j\\.'),
  // A civil partnership ("Edukacja Plus s.c."), lower case only: "S.C." is many other things.
  form('s\\.\\s?c\\.', true),
  form('spol\\.\\s?s\\s?r\\.\\s?o\\.'),
  form('s\\.r\\.o\\.'),
  form('a\\.s\\.', true),
  form('Kft\\.?', true),
  form('Zrt\\.?', true),
  form('Nyrt\\.?', true),
  form('Bt\\.', true),
  form('d\\.o\\.o\\.'),
  form('d\\.d\\.', true),
  form('EOOD', true),
  form('OOD', true),
  form('EAD', true),
  // The same Bulgarian forms in Cyrillic, and Greece's ("… Παπαδάκη Α.Ε.", "Ι.Κ.Ε.", "Ο.Ε.", "Ε.Ε.").
  form('ЕООД', true),
  form('ООД', true),
  form('ЕАД', true),
  form('Α\\.Ε\\.', true),
  form('Ι\\.Κ\\.Ε\\.', true),
  form('Ο\\.Ε\\.', true),
  form('Ε\\.Ε\\.', true),
  form('OOO', true),
  form('PJSC', true),
  form('OJSC', true),
  form('CJSC', true),
  form('TOV', true),
  // Turkey ("Ltd. Şti." is listed with the Commonwealth forms, before "Ltd")
  form('A\\.Ş\\.', true),
  form('AŞ', true),
  // Gulf and free zones
  form('FZ-?LLC', true),
  form('LLC-FZ', true),
  form('FZE', true),
  form('FZCO', true),
  form('W\\.L\\.L\\.?', true),
  form('WLL', true),
  // Asia
  form('K\\.K\\.', true),
  form('Kabushiki\\s+Kaisha'),
  form('Pte\\.?\\s*Ltd\\.?'),
  form('Sdn\\.?\\s*Bhd\\.?'),
  form('Berhad'),
  form('Bhd\\.?', true),
  form('Pvt\\.?\\s*Ltd\\.?'),
  form('Private\\s+Limited'),
  form('Tbk\\.?', true),
];

const WEAK_FORMS = new Set(['Company', 'Co\\.', 'Pty\\.?']);

const alternation = (forms: readonly LegalForm[], caseSensitive: boolean): string =>
  forms
    .filter((f) => f.caseSensitive === caseSensitive)
    .map((f) => f.pattern)
    .join('|');

// A suffix is preceded by a comma or space and ends the name. Case-sensitive and insensitive forms
// need separate regexes because JavaScript has no inline case flags.
const SUFFIX_CI = new RegExp(`(?:,?\\s+)(?:${alternation(LEGAL_FORMS, false)})$`, 'i');
const SUFFIX_CS = new RegExp(`(?:,?\\s+)(?:${alternation(LEGAL_FORMS, true)})$`);
const STRONG_CI = new RegExp(
  `(?:,?\\s+)(?:${LEGAL_FORMS.filter((f) => !f.caseSensitive && !WEAK_FORMS.has(f.pattern))
    .map((f) => f.pattern)
    .join('|')})$`,
  'i',
);
const STRONG_CS = new RegExp(
  `(?:,?\\s+)(?:${LEGAL_FORMS.filter((f) => f.caseSensitive && !WEAK_FORMS.has(f.pattern))
    .map((f) => f.pattern)
    .join('|')})$`,
);

// Japanese, Chinese and Korean forms, written without a space and before or after the name:
// "株式会社サンプル", "サンプル株式会社", "示例科技有限公司", "주식회사 샘플", "(주)샘플"; the Greek and Hebrew
// forms after it ("Παράδειγμα Α.Ε.", "דוגמה בע״מ"), the Cyrillic ones before it ("ООО «Пример»", "ТОВ «Приклад»").
// Japan's corporations of the professions and of public benefit ("税理士法人…" tax accountants, "医療法人社団…"
// a clinic, "一般社団法人…" an association) are written before the name like "株式会社".
const JP_CORPORATIONS =
  '(?:税理士|弁護士|監査|司法書士|行政書士|弁理士|社会保険労務士|土地家屋調査士|医療|社会福祉|学校|宗教|特定非営利活動|NPO|(?:一般|公益)(?:社団|財団))法人(?:社団|財団)?';
const CJK_SUFFIX =
  /(?:株式会社|有限会社|合同会社|合資会社|合名会社|股份有限公司|有限责任公司|有限責任公司|有限公司|주식회사|유한회사|\s(?:Α\.?Ε\.?|Ε\.?Π\.?Ε\.?|Ι\.?Κ\.?Ε\.?|Ο\.?Ε\.?)|\sבע["״]מ|\sจำกัด(?:\s*\(มหาชน\))?|\s(?:ذ\.م\.م|ش\.م\.م|ش\.ذ\.م\.م)\.?)$/u;
// French forms written before the name too ("SARL Tilleuls Immo au capital de 8 000 €"): FR_PREFIX_FORMS.
export const FR_PREFIX_FORMS = 'SARL|SASU|SAS|EURL|SELARL|SNC';
const CJK_PREFIX = new RegExp(
  String.raw`^(?:株式会社|有限会社|合同会社|合資会社|合名会社|${JP_CORPORATIONS}|주식회사|유한회사|\(주\)|㈜|(?:ООО|ОАО|ЗАО|ПАО|АО|ТОВ|ПрАТ|ЕООД|ООД|АД)\s+|บริษัท\s*|(?:Công\s+ty|CÔNG\s+TY)\s+(?:TNHH|Cổ\s+phần|CỔ\s+PHẦN|CP)\s+|(?:UAB|VšĮ|MB)\s*(?=[„"“«])|(?:${FR_PREFIX_FORMS})\s+(?=[\p{Lu}\d]))\s*`,
  'u',
);

const CJK_BEFORE = String.raw`(?:株式会社|有限会社|合同会社|合資会社|合名会社|${JP_CORPORATIONS}|주식회사|유한회사|\(주\)|㈜)`;
const CJK_AFTER = '(?:株式会社|有限会社|合同会社|合資会社|合名会社|股份有限公司|有限责任公司|有限責任公司|有限公司|주식회사|유한회사)';

/**
 * The legal spelling a text gives a name written in Chinese, Japanese or Korean, which has no spaces
 * to end a name by: the name right after a form written before it ("株式会社" + "サクラテック") or
 * right before one written after it ("サクラテック" + "株式会社"). Null when the text has neither.
 */
export function cjkLegalSpellingIn(name: string, text: string): string | null {
  if (!/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(name) || legalFormOf(name)) return null;
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(String.raw`${CJK_BEFORE}[ \t]*${n}|${n}[ \t]*${CJK_AFTER}`, 'u').exec(text);
  return m ? m[0] : null;
}

/** The legal-form suffix at the end of `name`, as written ("Inc.", "GmbH & Co. KG"), or null. */
export function legalFormOf(name: string): string | null {
  const s = name
    .trim()
    .replace(/[®™]+$/, '')
    .trim();
  const m = SUFFIX_CI.exec(s) ?? SUFFIX_CS.exec(s) ?? CJK_SUFFIX.exec(s) ?? CJK_PREFIX.exec(s);
  return m ? m[0].replace(/^,?\s+/, '').trim() : null;
}

/**
 * The countries whose company law a legal form belongs to, for the forms that name few ("Pty Ltd" is
 * Australian, "GmbH" German, Austrian or Swiss); empty for forms of many ("Ltd", "Inc.", "S.A.").
 */
const FORM_COUNTRIES: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/^\(Pty\)\s*Ltd\.?$/i, ['ZA']],
  [/^Pty\.?(?:\s*(?:Ltd\.?|Limited))?$/i, ['AU']],
  [/^Pte\.?\s*(?:Ltd\.?|Limited)$/i, ['SG']],
  [/^Sdn\.?\s*Bhd\.?$/i, ['MY']],
  [/^(?:Pvt\.?\s*Ltd\.?|Private\s+Limited)$/i, ['IN']],
  [/^(?:GmbH|AG|UG(?:\s*\(haftungsbeschränkt\))?|GmbH\s*&\s*Co\.?\s*KG)$/, ['DE', 'AT', 'CH', 'LI']],
  [/^(?:B\.?V\.?|N\.?V\.?)$/, ['NL', 'BE']],
  [/^(?:SAS|SARL|SASU|EURL)$/, ['FR']],
  [/^(?:AB|AB\s*\(publ\))$/, ['SE']],
  [/^(?:ApS|A\/S)$/, ['DK']],
  [/^(?:Oy|Oyj)$/, ['FI']],
  [/^(?:S\.?p\.?A\.?|S\.?r\.?l\.?)$/i, ['IT']],
  [/^(?:S\.?L\.?U?)$/, ['ES']],
  [/^(?:Sp\.?\s*z\s*o\.?\s*o\.?)$/i, ['PL']],
  [/^(?:K\.?K\.?|G\.?K\.?)$/, ['JP']],
  [/^(?:plc|PLC|LLP)$/, ['GB']],
];

/** The countries whose law the name's legal form belongs to, where it belongs to few ("Acme Pty Ltd": AU). */
export function legalFormCountries(name: string): readonly string[] {
  const form = legalFormOf(name);
  if (!form) return [];
  return FORM_COUNTRIES.find(([re]) => re.test(form))?.[1] ?? [];
}

/** True for a suffix that alone says "registered company" ("Company" and "Co." are too common in brand names). */
export function hasStrongLegalForm(name: string): boolean {
  const s = name
    .trim()
    .replace(/[®™]+$/, '')
    .trim();
  return STRONG_CI.test(s) || STRONG_CS.test(s) || CJK_SUFFIX.test(s) || CJK_PREFIX.test(s);
}

/** The name without its legal form: "Acme Widgets, Inc." -> "Acme Widgets". Applied once, then trailing comma removed. */
export function stripLegalForm(name: string): string {
  const s = name
    .trim()
    .replace(/[®™]+$/, '')
    .trim();
  const m = SUFFIX_CI.exec(s) ?? SUFFIX_CS.exec(s) ?? CJK_SUFFIX.exec(s);
  if (!m && CJK_PREFIX.test(s)) return s.replace(CJK_PREFIX, '').trim();
  return (m ? s.slice(0, m.index) : s).replace(/[\s,]+$/, '').trim();
}

/** "Inc\\.?" -> "[iI][nN][cC]\\.?": case-insensitive without the `i` flag, which would also loosen the name part. */
function caseless(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (/[a-z]/i.test(c) && c.toLowerCase() !== c.toUpperCase()) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    } else out += c;
  }
  return out;
}

/**
 * A regex source matching any legal form inside running text, usable in a regex without the `i`
 * flag; the free-text scanners (copyright lines, imprints) cut a name right after it.
 */
export const LEGAL_FORM_IN_TEXT = `(?:${LEGAL_FORMS.map((f) => (f.caseSensitive ? f.pattern : caseless(f.pattern))).join('|')})`;
