/**
 * The legal name of the site's owner. Every place a page names an organisation becomes a weighted
 * candidate; candidates that are the same company (equal once the legal form is set aside) pool
 * their evidence, and closeness to the site's own identity (domain, og:site_name, title) separates
 * the owner from partners, clients and web agencies named on the same page.
 */
import { compact } from '@enrich/shared/page';
import { extractTextAddresses } from './addresses/index.ts';
import { cjkLegalSpellingIn, FR_PREFIX_FORMS, hasStrongLegalForm, legalFormOf, LEGAL_FORM_IN_TEXT, stripLegalForm } from './legal-forms.ts';
import type { StructuredData } from './structured-types.ts';
import { normalizeLine } from './text.ts';

export type NameSource = 'jsonld' | 'microdata' | 'footer' | 'imprint' | 'og' | 'logo' | 'title' | 'text';

export interface NameCandidate {
  name: string;
  source: NameSource;
  /** How much this one sighting says, before agreement and owner affinity are counted. */
  weight: number;
  /**
   * The sighting states the legal entity: a JSON-LD/microdata legalName, an imprint, or the holder of
   * a copyright notice that opens its line.
   */
  legal?: boolean;
  /**
   * The sighting is the owner named by an ownership statement, and this is what the statement says it
   * owns: "Wikipedia" in "Wikipedia® is a registered trademark of the Wikimedia Foundation, Inc.". It
   * counts only where that subject is the site's own organisation or the site itself (owner-name.ts).
   * A registration line's subject is the registered name itself: it only confirms the organisation's own.
   */
  owns?: string;
  /** The page credits this name with making or running the site ("Powered by osCommerce"): see creditedNames. */
  credited?: boolean;
}

// Name words: capitalised words (in any script's letters: "Müller", "Société", "Yazılım"), camel-cased
// brand words that open with one to three lower-case letters ("eBay", "iRobot", "myHome"), and the
// lower-case joiners company names contain.
// A word is at most 40 characters more: the bound keeps the readers linear on hostile text (60 KB of
// "S.S.S.…", one dotted "word", took 2 s of backtracking from every capital in it).
const CAPITALISED = String.raw`(?:[\p{Lu}\p{Lt}0-9]|\p{Ll}{1,3}(?=\p{Lu}))[\p{L}\p{M}\p{N}_'’.&+-]{0,40}`;
// A capitalised qualifier in brackets is part of the name too: "C.L. Joinery (Midlands) Limited", "Acme (UK) Ltd".
const QUALIFIER = String.raw`\(\p{Lu}[\p{L}\p{M}'’.&-]+(?:[ \t]\p{Lu}[\p{L}\p{M}'’.&-]*){0,2}\)`;
const WORD = String.raw`(?:${CAPITALISED}|${QUALIFIER}|&|and|of|the|for|de|du|des|del|della|delle|dei|degli|di|da|do|dos|das|la|le|los|las|van|von|der|den|und|für|et|y|e)`;
const NAME_BEFORE_FORM = new RegExp(
  String.raw`(?<![\p{L}\p{M}\p{N}_'’-])(${CAPITALISED}(?:[ \t]+${WORD}){0,6}?)(?:,?[ \t]+)(${LEGAL_FORM_IN_TEXT})(?=$|[\s,;:)|/®™?!]|[.](?:\s|$))`,
  'gmu',
);

/** What follows "company" when it is a field's name, not a weak legal form: "company number", "Company No.". */
const NOT_A_FORM_AFTER = /^[ \t]+(?:no\b|nr\b|number|registration|reg\b|registered|law|name|details|information|profile|secretary)/i;

/** A legal form right after another one (its name's weak form: "Company" in "Acme Company, Inc."). */
const FORM_AFTER_FORM = new RegExp(String.raw`^,?[ \t]+(?:${LEGAL_FORM_IN_TEXT})(?=$|[\s,;:)|/®™?!]|[.](?:\s|$))`, 'u');

// What may open a name before the words the reader takes: one to three capitalised words, each
// followed by a comma (the first partners of "Katz, Marshall & Banks, LLP", or a place before a name:
// "Toronto, Ontario Widgets Inc."), or one or two capitalised words and a short lower-case joiner
// ("Hotels on Main, LLC", "Art by Design Ltd", or a sentence: "Welcome to Acme Ltd").
const LEADING_WORDS =
  /(?<![\p{L}\p{M}\p{N}_'’.-])(?:(?:\p{Lu}[\p{L}\p{M}'’-]*,[ \t]+){1,3}|(?:\p{Lu}[\p{L}\p{M}'’-]*[ \t]+){1,2}(?:on|in|at|by|to|upon|or|an|a)[ \t]+)$/u;

export interface TextLegalName {
  name: string;
  /** Read with the words that may open it (LEADING_WORDS); the same name without them follows it. */
  extended: boolean;
}

/**
 * Legal names ("Acme Widgets, Inc.") written anywhere in a stretch of text. A name that LEADING_WORDS
 * may open is read with them first, then without them: which one is the site's, the candidates'
 * closeness to the domain decides (collectNameCandidates weighs the longer reading less).
 */
export function readLegalNamesInText(text: string): TextLegalName[] {
  const out: TextLegalName[] = [];
  for (const m of text.matchAll(NAME_BEFORE_FORM)) {
    // A leading year or "Copyright" is the copyright line's, not part of the name.
    // A name starts after the last sentence end in its words ("… trading as Fitzroy Hale Lawyers. Legal
    // Services Ltd"): a word ending in four lower-case letters, then a full stop (not "Bros.", "Intl.", "Assoc."),
    // or an acronym after a lower-case word ("… licensed by ICASA. Riverbend Community Radio NPC").
    const opening = m[1]!.replace(/^(?:(?:copyright|(?:19|20)\d\d)\s+)+/i, '');
    const lowerWordBefore = /\p{Ll}[ \t]+$/u.test(text.slice(Math.max(0, m.index - 40), m.index));
    const start = lowerWordBefore ? opening.replace(ACRONYM_ENDING_SENTENCE, '') : opening;
    const head = start.replace(
      /^.*(?<!\b(?:Assoc|Bros|Corp|Intl|Natl|Mfrs|Dept|Assn|Svcs|Mgmt|Prof|Univ|Hosp|Govt|Inst|Cos|Ent|Ind|Int))(?<=\p{Lu}\p{Ll}{3,}|\p{Ll}{4})\.[ \t]+(?=\p{Lu})/u,
      '',
    );
    let name = normalizeLine(`${head}${m[0].slice(m[1]!.length)}`);
    // The reader stops at the first form; a weak one is often the name's own word before the real
    // form: "Acme Company, Inc.", "Slievecarn Brewing Company Limited".
    if (!hasStrongLegalForm(name)) {
      const more = FORM_AFTER_FORM.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 40));
      if (more && hasStrongLegalForm(`${name}${more[0]}`)) name = normalizeLine(`${name}${more[0]}`);
    }
    // Runs of capitals like "MA MI MN NV" (a list of states) are no name: ask for one real word.
    if (!/\p{L}{3,}/u.test(stripLegalForm(name))) continue;
    // An English form in lower case is a word of a sentence ("Liability limited by a scheme …", "the
    // Acme company"); forms that other languages write in lower case (s.r.o., sp. z o.o.) are kept.
    if (/^(?:limited|company|incorporated|corporation)$/.test(m[2]!)) continue;
    // "Registered in England and Wales, company number 0712…": a register's field, not a form.
    if (!hasStrongLegalForm(name) && NOT_A_FORM_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 20))) continue;
    if (!hasStrongLegalForm(name) && !legalFormOf(name)) continue;
    // "c/o Parcel Hub Logistics Ltd": the recipient of a postal address names whoever receives the
    // mail (a warehouse, an office service, an agent), never a statement of who runs the site.
    if (head === m[1] && CARE_OF_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    const lead = head === m[1] ? LEADING_WORDS.exec(text.slice(Math.max(0, m.index - 120), m.index)) : null;
    if (lead) out.push({ name: normalizeLine(`${lead[0]}${name}`), extended: true });
    out.push({ name, extended: false });
  }
  // French forms written before the name, as legal mentions write them: "SARL Tilleuls Immo au capital
  // de 8 000 € – RCS Lyon …"; the name ends where a field, the capital or the register starts.
  for (const m of text.matchAll(NAME_AFTER_FR_FORM)) out.push({ name: normalizeLine(m[1]!), extended: false });
  return out;
}

/** An acronym that ends a sentence, when a lower-case word comes before it: "… licensed by ICASA. Riverbend …". */
const ACRONYM_ENDING_SENTENCE = /^\p{Lu}{2,}\.[ \t]+(?=\p{Lu})/u;

/** "c/o" or "care of" right before a name. */
const CARE_OF_BEFORE = /(?:\bc\/o|\bcare of)[ \t]*:?[ \t]*$/i;

const NAME_AFTER_FR_FORM = new RegExp(
  String.raw`(?<![\p{L}\p{N}])((?:${FR_PREFIX_FORMS})[ \t]+${CAPITALISED}(?:[ \t]+${WORD}){0,5}?)(?=[ \t]*(?:$|[,;(–—|·•]|-[ \t]|au[ \t]+capital|(?:RCS|SIRE[NT])\b))`,
  'gmu',
);

/** The names of readLegalNamesInText, each longer reading before the shorter. */
export function findLegalNamesInText(text: string): string[] {
  return readLegalNamesInText(text).map((n) => n.name);
}

const COPYRIGHT = /(?:©|\(c\)|&copy;|\bcopyright\b)[ \t]*(.{0,200})/gi;
const YEARS = /\b(?:19|20)\d{2}\b(?:\s*[-–—/]\s*(?:(?:19|20)\d{2}|\d{2}|present|heute))?/gi;
const MONTH =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b[\s,.]*/i;
// A web agency's credit, in English and the main European languages ("Webdesign: Pixel GmbH", "Réalisé par …").
const AGENCY =
  /\b(?:powered|designed|developed|hosted|built|created|made|maintained)\s+(?:by|with)\b|(?<!\p{L})(?:(?:e-?commerce|shop|webshop|online-?shop)[\s-]*(?:software|logiciel)|(?:software|logiciel)\s+(?:e-?commerce|de\s+comercio\s+electr[oó]nico))\s+(?:by|par|von|di|de|door|da)(?!\p{L})|\b(?:website|site|web design|webdesign)\s+(?:by|design)\b|\b(?:webdesign|web-design|realisierung|umsetzung|gestaltung)\s*(?::|von|by|durch)|\b(?:realisiert|erstellt|entwickelt|programmiert)\s+(?:von|durch)\b|\b(?:réalisé|réalisation|conçu|conception|créé|développé)\s*(?:par|:)|\b(?:diseñado|desarrollado|diseño web|realizado)\s*(?:por|:)|\b(?:realizzato|sviluppato|progettato|powered)\s+(?:da|by)\b|\b(?:ontworpen|ontwikkeld|gemaakt|gerealiseerd)\s+door\b|\b(?:realizacja|projekt i wykonanie|wykonanie)\s*:/iu;
// "All rights reserved" in the languages of the EU and its neighbours: it ends a copyright holder.
const RIGHTS_RESERVED = [
  'all rights? reserved',
  'rights reserved',
  'alle rechte vorbehalten',
  'tous droits réservés',
  'todos los derechos(?: reservados)?',
  'tutti i diritti riservati',
  'alle rechten voorbehouden',
  'todos os direitos reservados',
  'wszelkie prawa zastrzeżone',
  'kaikki oikeudet pidätetään',
  'alla rättigheter förbehållna',
  'med ensamrätt',
  'alle rettigheder forbeholdes',
  'alle rettigheter reservert',
  'všechna práva vyhrazena',
  'všetky práva vyhradené',
  'minden jog fenntartva',
  'toate drepturile rezervate',
  'sva prava pridržana',
  'tüm hakları saklıdır',
  // Chinese, Thai, Vietnamese, Indonesian, Arabic, Hebrew, Ukrainian and Russian, Greek.
  '版权所有',
  '版權所有',
  '保留所有权利',
  'สงวนลิขสิทธิ์',
  'bản quyền thuộc về',
  'hak cipta dilindungi(?: undang-undang)?',
  'جميع الحقوق محفوظة',
  'כל הזכויות שמורות',
  'усі права захищен[іо]',
  'всі права захищен[іо]',
  'все права защищены',
  'με την επιφύλαξη παντός δικαιώματος',
].join('|');
// Footer links and registration numbers that follow a holder on its line: "© 2024 Acme Datenschutz Impressum",
// "© Acme P.IVA 0123…" (a tax or register word only before its number: "Blue Siren" is a name).
// Not at the holder's start, where the word is part of its name ("Cookie Jar Bakery"); "Cookies" only as a
// policy link ("Crumbl Cookies" is a name).
const FOOTER_WORDS = String.raw`privacy|terms of|sitemap|legal notice|disclaimer|(?<=\S\s+)\b(?:impressum|datenschutz\p{L}*|mentions l[ée]gales|cookies?[\s-]+(?:policy|settings|preferences|richtlinie\p{L}*|einstellungen|hinweis\p{L}*|politique|política|informativa|beleid)|agb)\b|(?<=\S\s+)\b(?:p\.?\s?iva|vat(?:\s+(?:no|number|reg(?:istration)?))?|ust\.?-?id\p{L}*|kvk|siret|siren|cif|nif|cnpj)\b(?=\W{0,4}(?:no\.?\s*|nr\.?\s*)?[A-Z]{0,3}\s?\d)`;
// A clause that says who owns or runs the holder ends it: "© 2025 Tamarack Millwork, operated by 2418763 Ontario Inc.".
const OWNED_CLAUSE = String.raw`,\s+(?:(?:independently|locally|proudly)\s+)?(?:owned|operated|run|managed)\s+(?:(?:and|&)\s+\p{L}+\s+)?by\s`;
const STOP = new RegExp(String.raw`\s*(?:${RIGHTS_RESERVED}|[|•·]|\s[-–—]\s|${FOOTER_WORDS}|${OWNED_CLAUSE})`, 'iu');
const RIGHTS_ONLY = new RegExp(String.raw`^[\s|•·,.-]*(?:${RIGHTS_RESERVED})?[\s|•·,.-]*$`, 'iu');

/** A holder is name-like: one to seven words, starting with a letter or digit. */
function nameLike(holder: string): boolean {
  const words = holder.split(/\s+/).filter(Boolean);
  return words.length >= 1 && words.length <= 7 && /^[\p{L}\d]/u.test(holder) && /\p{L}{2,}/u.test(holder) && holder.length <= 80;
}

export interface CopyrightStatement {
  holder: string;
  /**
   * The notice states the site's legal entity: it opens its line and names the holder after the sign
   * ("© 2024 Acme Media Ltd"), not in a credit inside a sentence ("Photos © Jane Roe"); a holder
   * written before the sign ("Acme © 2024") counts only with a legal form, as it may be a menu item.
   */
  opensLine: boolean;
}

/** The holder written before the sign ("Acme Widgets © 2024", "Simons Foundation\nAll Rights Reserved © 2020"). */
function holderBefore(text: string, at: number): string {
  const lines = text.slice(Math.max(0, at - 300), at).split('\n');
  const line = lines.pop() ?? '';
  if (!line.trim()) return '';
  if (!RIGHTS_ONLY.test(line))
    return line
      .split(/\s*[|•·]\s*/)
      .pop()!
      .replace(/[\s,.;:-]+$/, '')
      .trim();
  const previous = lines.reverse().find((l) => l.trim()) ?? '';
  return /[|•·]/.test(previous) ? '' : previous.trim();
}

/** The holder named after the sign and years, cut before agency credits and "All rights reserved". */
function holderAfter(rest: string): string {
  let r = rest
    .replace(/©|\(c\)|\bcopyright\b/gi, ' ')
    .replace(YEARS, ' ')
    .replace(/^[\s,.:;-]+/, '')
    .replace(MONTH, '')
    // "© 2026 by Acme", and as site builders' templates write it in other languages ("© 2026 par …",
    // "von …", "por …", "door …", "di …", "av …", "af …", "przez …"); lower case only but for "by".
    .replace(/^(?:[Bb]y|par|von|por|door|di|av|af|przez)\s+/u, '');
  const agency = AGENCY.exec(r);
  if (agency) r = r.slice(0, agency.index);
  const legal = findLegalNamesInText(r)[0];
  if (legal && r.indexOf(legal.split(/[\s,]/)[0]!) < 3) return legal;
  const stop = STOP.exec(r);
  const holder = stop ? r.slice(0, stop.index) : r;
  // Cut at the first full stop, not at a middle initial ("John W. Callinan. Site design …").
  return holder
    .replace(/(?<!\b\p{Lu})\.(?:\s.*)?$/u, '')
    .replace(/[\s,.;:]+$/, '')
    .trim();
}

// The name a credit gives: capitalised words ("Pixel Perfect Designs Ltd", "X-Cart"), or one camel-cased
// word ("osCommerce", "nopCommerce").
const CREDITED_NAME =
  /^(?:the\s+)?((?:[\p{Lu}\d][\p{L}\p{M}\p{N}'’.&+!-]*|\p{Ll}+\p{Lu}[\p{L}\p{N}]*)(?:[ \t]+(?:[\p{Lu}\d][\p{L}\p{M}\p{N}'’.&+!-]*|&|and|of|de|du|des|di|da|la|le|van|von|der|den|und|et|y|e)){0,5})/u;

// A credit for the site itself; not "designed by" or "built by" alone, which a business also writes
// of its own work ("Kitchens designed by Acme").
// The same credits in the main European languages, for the site or its design only ("Site réalisé par",
// "Réalisation :", "Webdesign:", "Sito realizzato da", "Diseño web:", "Website door"), as AGENCY reads them.
const CREDIT =
  /\b(?:powered|hosted|run)\s+by\b|\b(?:built|made)\s+with\b|(?<!\p{L})(?:(?:e-?commerce|shop|webshop|online-?shop)[\s-]*(?:software|logiciel)|(?:software|logiciel)\s+(?:e-?commerce|de\s+comercio\s+electr[oó]nico))\s+(?:by|par|von|di|de|door|da)(?!\p{L})|\b(?:theme|template)\s+by\b|\b(?:web\s?site|site|web design|webdesign)(?:\s+(?:designed|developed|built|created|made|design|hosted))?\s+by\b|(?<!\p{L})(?:site(?:\s+(?:internet|web))?\s+(?:réalisé|conçu|créé|développé)\s+par|réalisation\s*(?::|par)|conception\s*(?:web\s*)?:|(?:webdesign|web-design|webentwicklung)\s*(?::|von|durch)|(?:realisierung|umsetzung|gestaltung)\s*:|(?:website|webseite|homepage)\s+(?:erstellt\s+)?(?:von|durch)|sito(?:\s+web)?\s+(?:realizzato|sviluppato|progettato)\s+da|(?:diseño|desarrollo)\s+web\s*(?::|por)|(?:diseño|desarrollo|desenvolvimento|design|sviluppo|development)\s+(?:y|e|and|&)\s+(?:diseño|desarrollo|desenvolvimento|design|sviluppo|development)\s*(?::|por|by|da)|(?:sitio|página)\s+web\s+(?:diseñad[oa]|desarrollad[oa]|realizad[oa])\s+por|(?:website|webdesign|webontwerp)\s+(?:door|:)|(?<=[·|•]\s*)(?:website|webseite)\s*:)(?!\p{L})/giu;

/**
 * The names a page credits with making or running the site ("Powered by osCommerce", "Website by
 * Pixel Ltd", "Hosted by BlueHost"): a platform's, an agency's or a host's, whatever else the page
 * says of them ("Copyright © 2024 osCommerce" in a shop's footer). As comparison keys.
 */
export function creditedNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(CREDIT)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 120).replace(/^[\s:]+/, '');
    // A full stop ends the name ("Site by Pixel Co. Hosted by …").
    const name = CREDITED_NAME.exec(rest)?.[1]
      ?.replace(/\.\s.*$/s, '.')
      .replace(/,+$/, '')
      // A joiner the name did not go on with ("Powered by Shopify and friends").
      .replace(/(?:\s+(?:&|and|of|de|du|des|di|da|la|le|van|von|der|den|und|et|y|e))+$/u, '');
    if (name) out.add(compact(stripLegalForm(name)));
  }
  out.delete('');
  return out;
}

/** Every copyright notice of a text with its holder: "© 2024 Acme Widgets, Inc. All rights reserved." -> "Acme Widgets, Inc.". */
export function copyrightStatements(text: string): CopyrightStatement[] {
  const out: CopyrightStatement[] = [];
  for (const m of text.matchAll(COPYRIGHT)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const before = text
      .slice(lineStart, m.index)
      .split(/\s*[|•·]\s*/)
      .pop()!
      .trim();
    const after = holderAfter((m[1] ?? '').split('\n')[0]!);
    const holder = after || holderBefore(text, m.index);
    if (!nameLike(holder)) continue;
    out.push({ holder, opensLine: after ? !before : !!legalFormOf(holder) });
  }
  return out;
}

/** The holders named in the copyright lines of a text. */
export function copyrightHolders(text: string): string[] {
  return copyrightStatements(text).map((c) => c.holder);
}

// German imprints cite § 5 TMG, since May 2024 § 5 DDG (Digitale-Dienste-Gesetz).
const IMPRINT_HEADING =
  /^[ \t]*(?:impressum|impresszum|imprint|legal notice|legal information|site notice|mentions l[ée]gales|informations l[ée]gales|colofon|colophon|aviso legal|note legali|informazioni legali|anbieterkennzeichnung|angaben gem(?:ä|ae)(?:ß|ss) § ?5 (?:tmg|ddg)|company details|dane firmy|dane sprzedawcy|firmendaten|bedrijfsgegevens|datos de la empresa|dati aziendali)(?![\p{L}]).*$/gimu;

/**
 * Legal names in the block under an Impressum / Imprint / Mentions légales heading: the first one that
 * opens its line or follows a label on it ("Betreiber: Muster GmbH"), within the block's first eight
 * lines. The heading is often only a footer link among others ("Impresszum / Fizetés / Bankkártyás
 * fizetés a Barion Payment Zrt. …"): a name in a sentence further down is not the imprint's.
 */
export function imprintNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPRINT_HEADING)) {
    const lines = text
      .slice(m.index + m[0].length, m.index + m[0].length + 600)
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 8);
    for (const line of lines) {
      const name = findLegalNamesInText(line).find((n) => /^(?:[^:：]{0,60}[:：])?\s*$/u.test(line.slice(0, line.indexOf(n))));
      if (name) {
        out.push(name);
        break;
      }
    }
  }
  return out;
}

// A company profile's label, in English and the languages of the imprint and 会社概要 tables: "Company name:
// Acme Widgets Ltd", "Firma: Muster GmbH", "Raison sociale", "Razón social", "Ragione sociale", "会社名", "商号",
// "公司名称", "회사명". The value follows on the line (after ":" or a tab) or on the next line.
const PROFILE_LABEL =
  /^[ \t]*(?:(?:registered|legal|official|full|corporate)\s+(?:company\s+)?name|company\s+name|name\s+of\s+(?:the\s+)?company|firmenname|firmierung|firma|raison\s+sociale|d[ée]nomination\s+sociale|raz[oó]n\s+social|denominaci[oó]n\s+social|ragione\s+sociale|denominazione(?:\s+sociale)?|bedrijfsnaam|statutaire\s+naam|(?:website\s+|site\s+)?operator|seller|medieninhaber(?:in)?(?:\s+(?:und|&)\s+(?:betreiber|herausgeber)(?:in)?)?|titular(?:\s+del\s+(?:sitio|dominio)(?:\s+web)?)?|(?:website-?)?betreiber(?:in)?|diensteanbieter(?:in)?|provozovatel(?:\s+webu)?|prevádzkovateľ(?:\s+(?:webu|stránky|e-shopu))?|üzemeltető|ylläpitäjä|prowadz[aą]cy|[ée]diteur(?:\s+du\s+site)?|exploitant|editore|gestore|会社名|商号|社名|運営会社|販売業者|公司名称|公司全称|公司名稱|公司全稱|продавець|продавец|회사명|상호명|상호)[ \t]*[:：]?[ \t]*(.*)$/gimu;

// A name that opens with a capital and runs, in words of any case, to its legal form within six words.
const SENTENCE_CASE_NAME = new RegExp(
  String.raw`^\p{Lu}[\p{L}\p{M}\p{N}'’.&+-]*(?:[ \t]+[\p{L}\p{M}\p{N}'’.&+()-]+){0,5}?,?[ \t]+(?:${LEGAL_FORM_IN_TEXT})(?=$|[\s,;:)|/·•]|[.](?:\s|$))`,
  'u',
);

/**
 * The names a company profile or imprint table gives under its label. Only a value with a strong
 * legal form counts, so a form's "Company Name:" field (followed by the next label) names nobody.
 */
export function profileNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PROFILE_LABEL)) {
    const sameLine = m[1]!.trim();
    // The next line that holds something, at most two lines down (a table cell is a line of its own).
    const next =
      text
        .slice(m.index + m[0].length)
        .split('\n')
        .slice(1, 3)
        .find((l) => l.trim())
        ?.trim() ?? '';
    const value = (sameLine || next).slice(0, 120);
    // The value's first cell, where a footer strings fields together ("상호명: 주식회사 하늘플라워 | 대표: …"):
    // a short one with a strong legal form is the name as written (scripts the Latin reader does not take).
    // A name in Chinese, Japanese or Korean may carry its English spelling in brackets: "株式会社木漏日フーズ（Komorebi Foods Co., Ltd.）".
    const cell = value.split(/\s[|•·]\s|\t|\s{3,}|[（(](?=[^）)]*[A-Za-z])/)[0]!.trim();
    const name =
      findLegalNamesInText(value).find((n) => value.startsWith(n.split(/[\s,]/)[0]!)) ??
      (hasStrongLegalForm(cell) && (!/\s/.test(cell) || (cell.split(/\s+/).length <= 3 && !/\p{Lu}/u.test(cell))) ? cell : '');
    // A field's value may be written in sentence case, as names are in much of Europe ("Provozovatel:
    // Lipová hospoda s.r.o.", "Betreiber: Atelier Mérinat architectes Sàrl"): the label says it is a name.
    // Or opened by its form, in scripts without capitals or with the form in front ("Продавець: ТОВ «…»").
    if (!name) {
      const lower = SENTENCE_CASE_NAME.exec(value)?.[0] ?? PREFIXED_NAME.exec(value)?.[0];
      if (lower && hasStrongLegalForm(lower)) out.push(normalizeLine(lower));
    }
    if (name && hasStrongLegalForm(name)) out.push(name);
    // An association or foundation has no legal form after its name: its kind opens it ("Medieninhaber und
    // Herausgeber: Verein zur Förderung der Bergwaldpflege Tirol", "Titular: Fundación …").
    else if (!name && ASSOCIATION_NAME.test(cell) && cell.split(/\s+/).length <= 10 && nameLike(cell)) out.push(normalizeLine(cell));
  }
  return out;
}

/** An association's or foundation's name, opened by its kind: it has no legal form after it. */
export const ASSOCIATION_NAME =
  /^(?:Verein|Förderverein|Stiftung|Verband|Genossenschaft|Association|Fondation|Fundación|Fundació|Asociación|Associació|Associazione|Fondazione|Stichting|Vereniging|Stowarzyszenie|Fundacja|Spolek|Nadace|Föreningen|Stiftelsen|Foreningen|Fonden)\s+\p{L}/u;

// "X is a registered trademark of Y", "X are trademarks and the property of Y", "X is owned and operated
// by Y", "X is a division of Y", "X, a wholly owned subsidiary of Y": Y owns X. "Developed by" alone is
// a web agency's credit; "developed and owned by" is ownership.
const OWNERSHIP = new RegExp(
  [
    String.raw`\b(?:is|are)\s+(?:(?:a|the)\s+)?(?:(?:registered|common[- ]law)\s+)?(?:trade\s?marks?|service\s+marks?)(?:\s+(?:and|&)\s+(?:the\s+)?property)?\s+of\s+`,
    String.raw`\b(?:is|are)\s+(?:(?:independently|locally|proudly)\s+)?(?:(?:owned|operated|published|run)(?:\s+(?:and|&)\s+(?:owned|operated|published|run|developed|maintained|managed))?|developed\s+(?:and|&)\s+(?:owned|operated|published))\s+by\s+`,
    // The same as a clause after the name: "© 2025 Tamarack Millwork, operated by 2418763 Ontario Inc.".
    String.raw`,\s+(?:(?:independently|locally|proudly)\s+)?(?:owned|operated|run)(?:\s+(?:and|&)\s+(?:owned|operated|run|managed))?\s+by\s+`,
    String.raw`(?:\b(?:is|are)|,)\s+(?:a|an|the)\s+(?:(?:wholly[- ]owned|independent(?:ly owned)?|registered)\s+)?(?:subsidiary|division|brand|(?:trading|operating|business|trade|working)\s+(?:name|style)|member\s+company|affiliate|d\/b\/a|dba)\s+of\s+`,
    // A nonprofit's programme run by a foundation or charity: "The Elm Pantry is a program of The Elm Foundation".
    // A service a named organisation provides: "MindSpace Talking Therapies is provided by North Pennine NHS
    // Foundation Trust", "HelixLab's services are delivered through Eastmoor Research Enterprises Limited" (the
    // subject must name the site's organisation or the site: "Payments are provided by Stripe" names neither).
    String.raw`\b(?:is|are)\s+(?:provided|delivered|supplied)\s+(?:by|through)\s+`,
    // "Trailmark is designed, marketed and sold by Kestrel Outdoor Group, Inc.": two or more of these verbs, so
    // "sold by" alone (a retailer) is no ownership; "Services on this site are offered by …".
    String.raw`\b(?:is|are)\s+(?:(?:designed|developed|made|manufactured|marketed|distributed|sold|imported)(?:,\s*|\s+(?:and|&)\s+)){1,3}(?:designed|developed|made|manufactured|marketed|distributed|sold|imported)\s+by\s+`,
    String.raw`\b(?:is|are)\s+offered\s+by\s+`,
    // A publication named by its kind: "The Millbrook Sentinel is an independent newspaper published by Sentinel
    // Valley Press, Inc.", "Market Murmur is a weekly newsletter published by …".
    String.raw`\b(?:is|are)\s+(?:a|an|the)\s+(?:[\p{Ll}-]+\s+){0,3}?(?:newspaper|newsletter|magazine|publication|journal|periodical|gazette|digest|bulletin|blog|podcast|news\s?site|website|site|title)s?\s+(?:owned|operated|published|produced|run)(?:\s+(?:and|&)\s+(?:owned|operated|published|produced|run))?\s+by\s+`,
    // One word may qualify the programme: "Paws Rescue is the adoption program of Lowther Animal Welfare Foundation, Inc.".
    String.raw`\b(?:is|are)\s+(?:a|an|the)\s+(?:\p{Ll}+\s+)?(?:program(?:me)?|project|initiative|ministry)\s+of\s+`,
    // The same in the main European languages: "La Escuela … es un proyecto de la Asociación …", "è un progetto
    // della Fondazione …", "est un projet de l'association …", "ist ein Projekt des Vereins …", "is een project van".
    String.raw`(?<!\p{L})(?:es|son)\s+(?:un|una)\s+(?:proyecto|programa|iniciativa)\s+(?:de|del)\s+(?:la\s+|el\s+)?`,
    String.raw`(?<!\p{L})(?:è|sono)\s+(?:un[oa']?\s*)?(?:progetto|programma|iniziativa)\s+(?:di|del|della|dello|dell['’])\s*`,
    String.raw`(?<!\p{L})(?:est|sont)\s+(?:un|une)\s+(?:projet|programme|initiative)\s+(?:de\s+la|de\s+l['’]|du|des|de)\s*`,
    String.raw`(?<!\p{L})(?:ist|sind)\s+(?:ein|eine)\s+(?:Projekt|Programm|Initiative|Angebot)\s+(?:der|des|von)\s+`,
    String.raw`(?<!\p{L})(?:is|zijn)\s+een\s+(?:project|programma|initiatief)\s+van\s+`,
    // A publication's publisher in the main European languages: "De Polderpost is een uitgave van Polder Media
    // B.V.", "ist eine Publikation der …", "est une publication de …", "es una publicación de …", "è una
    // pubblicazione di …", "é uma publicação da …".
    String.raw`(?<!\p{L})(?:is|zijn)\s+een\s+(?:uitgave|publicatie)\s+van\s+`,
    String.raw`(?<!\p{L})(?:ist|sind)\s+(?:eine?\s+)?(?:Publikation|Ausgabe|Zeitung|Zeitschrift|Veröffentlichung)\s+(?:der|des|von)\s+`,
    String.raw`(?<!\p{L})(?:est|sont)\s+(?:une?\s+)?(?:publication|journal|magazine|titre)\s+(?:de\s+la|de\s+l['’]|du|des|de)\s*`,
    String.raw`(?<!\p{L})(?:es|son)\s+(?:una?\s+)?(?:publicación|cabecera|periódico|revista)\s+(?:de|del)\s+(?:la\s+|el\s+)?`,
    String.raw`(?<!\p{L})(?:è|sono)\s+(?:una?\s+)?(?:pubblicazione|testata|rivista)\s+(?:di|del|della|dello|dell['’])\s*`,
    String.raw`(?<!\p{L})(?:é|são)\s+(?:uma?\s+)?(?:publicação|revista|jornal)\s+(?:de|do|da|dos|das)\s+`,
    String.raw`(?<!\p{L})(?:é|são)\s+(?:um|uma)\s+(?:projeto|programa|iniciativa)\s+(?:de|do|da|dos|das)\s+`,
    // The same in the main European languages: "Beispiel ist eine Marke der Muster Holding GmbH", "Acme est une
    // marque de Groupe Exemple SA", "es una marca de", "è un marchio di", "is een merk van", "ist ein Unternehmen der".
    String.raw`(?<!\p{L})(?:ist|sind)\s+(?:eine?\s+)?(?:eingetragene\s+)?(?:marke|warenzeichen|handelsname|tochter(?:gesellschaft|unternehmen)?|unternehmen|gesellschaft|geschäftsbereich)\s+(?:der|des|von)\s+`,
    String.raw`(?<!\p{L})(?:est|sont)\s+(?:une?\s+)?(?:marque(?:s)?(?:\s+déposée?s?)?|nom\s+commercial|enseigne|filiale|division|société)\s+(?:de|du|des)\s+(?:la\s+)?`,
    String.raw`(?<!\p{L})(?:es|son)\s+(?:una?\s+|la\s+|el\s+)?(?:marca(?:s)?(?:\s+(?:registradas?|comercial))?|nombre\s+comercial|filial|división|empresa)\s+(?:de|del)\s+(?:la\s+)?`,
    String.raw`(?<!\p{L})(?:è|sono)\s+(?:un[oa']?\s*)?(?:marchio(?:\s+registrato)?|nome\s+commerciale|insegna|controllata|divisione|società)\s+(?:di|del|della|dello)\s+`,
    String.raw`(?<!\p{L})(?:is|zijn)\s+(?:een\s+)?(?:(?:geregistreerd\s+)?merk|handelsnaam|dochteronderneming|dochterbedrijf|divisie|onderdeel)\s+van\s+`,
    // "… is operated by" in German, French, Spanish, Italian, Dutch and Polish ("Sklep … prowadzony jest przez:").
    String.raw`(?<!\p{L})(?:wird|werden)\s+(?:betrieben|geführt)\s+von\s+`,
    String.raw`(?<!\p{L})(?:est|sont)\s+(?:exploitée?s?|éditée?s?|opérée?s?|gérée?s?)\s+par\s+`,
    String.raw`(?<!\p{L})(?:es|son|está|están)\s+(?:operad[oa]s?|gestionad[oa]s?)\s+por\s+`,
    String.raw`(?<!\p{L})(?:è|sono)\s+(?:gestit[oa]|operat[oa])\s+da\s+`,
    // "Il sito www.museo.it è di titolarità della Fondazione … ETS", "è di proprietà di".
    String.raw`(?<!\p{L})(?:è|sono)\s+di\s+(?:titolarità|proprietà)\s+(?:di|del|della|dello|dell['’])\s*`,
    String.raw`(?<!\p{L})(?:wordt|worden)\s+(?:beheerd|uitgebaat|geëxploiteerd)\s+door\s+`,
    String.raw`(?<!\p{L})(?:jest\s+)?prowadzon[ya]\s+(?:jest\s+)?przez[ \t]*:?[ \t]*`,
    // "Site-ul … este administrat de …" (Romanian), "Blagovno znamko … upravlja družba:" (Slovenian).
    String.raw`(?<!\p{L})(?:este|sunt)\s+(?:administrat|operat|deținut|detinut)[ăa]?\s+de(?:\s+(?:către|catre))?\s+(?:societatea\s+)?`,
    String.raw`(?<!\p{L})upravlja(?:\s+(?:družba|podjetje))?[ \t]*:[ \t]*`,
    // "… là thương hiệu … của Công ty TNHH …" (Vietnamese "a brand of"), "… dikelola oleh PT …" (Indonesian "managed by").
    String.raw`(?<!\p{L})(?:là\s+)?thương\s+hiệu(?:\s+[^\n,]{0,30}?)?\s+của\s+`,
    String.raw`(?<!\p{L})(?:dikelola|dioperasikan|dimiliki)\s+oleh\s+`,
  ].join('|'),
  'giu',
);
// "Owned and operated by Y", "Operated by Y" opening a sentence or a footer segment, or with the site
// named before it ("Site owned and operated by Y"); not "Published by", an article's byline.
const SITE_OPERATED_BY =
  /(?:^|[.!?|•·]\s+|\s[-–—]\s+)(?:(?:this|the|our)\s+)?(?:(?:web\s?)?site\s+)?(?:(?:proudly|independently|locally)\s+)?(?:owned|operated)(?:\s+(?:and|&)\s+(?:owned|operated|managed|maintained))?\s+by\s+|(?:^|\s)ดำเนินการโดย\s*/gimu;
/**
 * A franchise's or licensee's disclaimer: the site's business runs a brand it does not own, so the
 * brand's trademark notices name the franchisor, not the site's owner ("Culver's® … are registered
 * trademarks of Culver Franchising System, LLC. This restaurant is independently owned and operated").
 */
const FRANCHISE =
  /\bindependently\s+owned\b|\bfranchisee\b|\bfranchise\s+agreement\b|\bunder\s+(?:a\s+)?(?:licen[cs]e|franchise)\s+(?:agreement\s+)?(?:from|with)\b/i;
// The owner ends where its sentence or clause does.
const OWNER_END =
  /[,;:()[\]|•·!?]|\.(?:\s|$)|\s[-–—]\s|\s(?:and\s+(?:its|their|other)|or|in|which|that|who|is|are|was|registered|based|located|since|with|to)\s/;
const OWNER_WORD = /^(?:[\p{Lu}\d][\p{L}\d'’.&+-]*|&|and|of|the|for|de|du|des|la|van|von|und)$/u;
/** "This website", "the site", "our app": the statement is about the site itself. */
export const SITE_ITSELF =
  /^(?:(?:this|the|our)\s+(?:web\s?site|site|app|application|blog|online\s+(?:store|shop)|store|shop|portal|platform|services?)|(?:the\s+)?(?:services|products|subscriptions)\s+(?:on|offered\s+on|sold\s+on|bought\s+on)\s+this\s+(?:web\s?site|site|app)|(?:(?:il|le|el|o|de|die|das)\s+(?:sito|site|sitio|webseite|website)|site-ul)(?:\s+(?:web|internet))?)(?:\s+(?:www\.)?[\p{L}\d-]+(?:\.[\p{L}\d-]+)+)?$/iu;
/**
 * A statement about the kind of organisation the site is, named by its kind ("The museum is owned and
 * managed by …", "The company is a subsidiary of …", "Our practice is a division of …"): about the
 * site's organisation when its owner is an organisation (ORGANISATION_OWNER), not a person ("The salon
 * is owned by Jane Roe").
 */
export const ORGANISATION_ITSELF =
  /^(?:this|the|our)\s+(?:company|business|firm|practice|clinic|museum|gallery|hotel|restaurant|caf[eé]|school|academy|club|charity|library|theat(?:re|er)|venue|salon|studio|farm|winery|brewery|cent(?:re|er)|location|branch|franchise|office|dealership|agency)$/i;
/** A name with an organisation's word at its end: a trust, foundation, group … (or a strong legal form, tested apart). */
export const ORGANISATION_OWNER =
  /\s(?:Trust|Foundation|Association|Society|Group|Holdings|Council|Church|Diocese|University|College|Institute|Cooperative|Co-operative)$/u;

/**
 * A name its legal form opens, where the text reader (capitalised words before a form) cannot end
 * it: Thai "บริษัท … จำกัด", Vietnamese "Công ty TNHH …", Indonesian "PT …", a Baltic or Ukrainian form
 * before its quoted name ("UAB „…“", "ТОВ «…»"), and "株式会社…", "주식회사 …" up to a bracket or a space.
 */
const PREFIXED_NAME = new RegExp(
  [
    String.raw`^บริษัท\s*[^\n()（）,]{1,60}?\s*จำกัด(?:\s*\(มหาชน\))?`,
    String.raw`^(?:Công\s+ty|CÔNG\s+TY)\s+(?:TNHH|Cổ\s+phần|CỔ\s+PHẦN|CP)(?:\s+(?:MTV|Một\s+thành\s+viên))?(?:\s+[\p{Lu}\d][\p{L}\p{M}\d&.'’-]*){1,8}`,
    String.raw`^PT\.?\s+(?:[\p{Lu}\d][\p{L}\p{M}\d&.'’-]*)(?:\s+[\p{Lu}\d][\p{L}\p{M}\d&.'’-]*){0,5}(?:\s+Tbk\.?)?`,
    String.raw`^(?:UAB|AB|MB|VšĮ|SIA|AS|ТОВ|ООО|ПП|АТ|ПрАТ|ТДВ)\s*[„"“«][^"“”«»\n]{2,60}["“”»]`,
    String.raw`^(?:株式会社|有限会社|合同会社|주식회사|유한회사|\(주\)|㈜)\s*[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}\p{Script=Hangul}A-Za-z0-9ー・&]{1,20}`,
  ].join('|'),
  'u',
);

const PREFIX_FORM_AT = /บริษัท|Công\s+ty|CÔNG\s+TY|\bPT\.?\s|\b(?:UAB|VšĮ|ТОВ|ООО)\s*[„"“«]|株式会社|有限会社|合同会社|주식회사|유한회사|\(주\)|㈜/gu;
/** The last name its form opens in a stretch of text (PREFIXED_NAME), or ''. */
function prefixedNameIn(text: string): string {
  const at = [...text.matchAll(PREFIX_FORM_AT)].pop()?.index;
  return at === undefined ? '' : normalizeLine(PREFIXED_NAME.exec(text.slice(at))?.[0] ?? '');
}

/** The owner named after an ownership phrase: a legal name where one opens the rest, else a capitalised name. */
function ownerAfter(rest: string): string {
  // "… est une marque de la société Acme SAS", "… der Firma Muster GmbH": the article and the word "company".
  const r = rest
    .replace(/^(?:the|der|die|das|des|la|le|les|el|il|lo|het|de)\s+/i, '')
    .replace(/^(?:company|firma|soci[ée]t[ée]|sociedad|empresa|società|bedrijf|onderneming)\s+(?=\p{Lu})/iu, '');
  const legal = findLegalNamesInText(r)[0];
  if (legal && r.startsWith(legal.split(/[\s,]/)[0]!)) return legal;
  const prefixed = PREFIXED_NAME.exec(r)?.[0];
  if (prefixed) return normalizeLine(prefixed);
  // A name in sentence case up to its strong form, as much of Europe writes them ("Hravé drevo s.r.o.").
  const lower = SENTENCE_CASE_NAME.exec(r)?.[0];
  if (lower && hasStrongLegalForm(lower)) return normalizeLine(lower);
  const end = OWNER_END.exec(r);
  const name = (end ? r.slice(0, end.index) : r).trim().replace(/[.\s]+$/, '');
  const words = name.split(/\s+/);
  // A trust, board or society spells out what it is for ("Waitohi Museum and Art Gallery Trust Board").
  const most = ORGANISATION_OWNER.test(name) || /\sBoard$/u.test(name) ? 9 : 6;
  return words.length <= most && words.every((w) => OWNER_WORD.test(w)) && /^[\p{Lu}\d]/u.test(name) && /\p{L}{3,}/u.test(name) ? name : '';
}

/** The rest of the line after an ownership phrase; the next line when the phrase ends its line ("… operated by:"). */
function ownerLine(text: string, after: number): string {
  const [line, next] = text.slice(after, after + 150).split('\n');
  return line!.replace(/[\s:]+$/, '') === '' && next ? next.trim() : line!;
}

// "Its legal name is …", "The University's legal name is …", "Our registered legal name is …": a statement of
// the organisation's own legal name, whatever its form (a statutory body's "The Board of Trustees of …").
// Not "the company's legal name is …", which a news story writes of the company it is about.
const LEGAL_NAME_IS =
  /\b(?:its|our|the\s+(?:university|school|college|institute|council|charity|trust|foundation|museum|library|board|society|association|club|church|parish|hospital|practice|organi[sz]ation)['’]s)\s+(?:full\s+|official\s+|registered\s+|formal\s+)?legal\s+name\s+is\s*:?\s+/giu;
/** What the owns of a candidate says when the page states the candidate as its own legal name. */
export const OWN_LEGAL_NAME = 'its own legal name';

/** The names a text states as the organisation's own legal name ("Its legal name is The Board of Trustees of …"). */
export function statedLegalNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(LEGAL_NAME_IS)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 160).split('\n')[0]!;
    const name = rest.split(/\.(?:\s|$)|\s\(|;/)[0]!.trim();
    // Statutory names run long ("The Chancellor, Masters and Scholars of the University of …").
    if (/^\p{Lu}/u.test(name) && name.length <= 120 && name.split(/\s+/).length <= 14) out.push(normalizeLine(name));
  }
  return out;
}

/**
 * The owner's name, without its legal form (two words or more), in the text before its statement: a
 * block's own subject ("Larkspur Ridge Distillery"), not the owner's statement repeated with its form.
 */
function namedJustBefore(owner: string, before: string): boolean {
  const name = stripLegalForm(owner);
  if (name.split(/\s+/).length < 2) return false;
  const form = owner
    .slice(name.length)
    .replace(/^[\s,]+/, '')
    .toLowerCase();
  const text = before.toLowerCase();
  for (let at = text.indexOf(name.toLowerCase()); at >= 0; at = text.indexOf(name.toLowerCase(), at + 1)) {
    if (
      !form ||
      !text
        .slice(at + name.length)
        .replace(/^[\s,]+/, '')
        .startsWith(form)
    )
      return true;
  }
  return false;
}

/**
 * Ownership statements of a text: who the page says owns what. The subject is the clause before the
 * phrase (back to the sentence's start, at most 150 characters); the owner is the name after it.
 */
export function ownershipStatements(text: string): Array<{ owner: string; owns: string }> {
  const out: Array<{ owner: string; owns: string }> = [];
  const franchise = FRANCHISE.test(text);
  for (const m of text.matchAll(OWNERSHIP)) {
    if (franchise && /trade\s?marks?|service\s+marks?/i.test(m[0])) continue;
    const before = text.slice(Math.max(0, m.index - 150), m.index);
    const owns = normalizeLine(
      before
        .split(/\n|[.!?](?:\s)|\s[|•·]\s/)
        .pop()!
        .replace(/[®™℠]/g, ''),
    );
    const after = m.index + m[0].length;
    const owner = ownerAfter(ownerLine(text, after));
    if (owns && owner && nameLike(owner)) out.push({ owner: normalizeLine(owner), owns });
  }
  // A sentence with no subject ("© 2024 Seaside Hotel. Owned and operated by Acme Hospitality LLC."):
  // it speaks of the site itself.
  // A page that says "owned by" of several owners lists its locations' owners (a franchise's
  // "Brightleaf of North Raleigh — owned by Marcus & Tia Greene"): none of them is the site's.
  // Not when the lines just before name the owner itself ("Larkspur Ridge Distillery · Tours by appointment ·
  // Operated by Larkspur Ridge Distillery Pty Ltd."): that is a venue's or a listing's block, an article's
  // fact box, about the organisation it names, not the site.
  const operators = [...text.matchAll(SITE_OPERATED_BY)]
    .map((m) => ({ owner: ownerAfter(text.slice(m.index + m[0].length, m.index + m[0].length + 150).split('\n')[0]!), at: m.index }))
    .filter(({ owner, at }) => owner && nameLike(owner) && !namedJustBefore(owner, text.slice(Math.max(0, at - 200), at)))
    .map(({ owner }) => owner)
    .map(normalizeLine);
  if (new Set(operators.map((o) => compact(stripLegalForm(o)))).size === 1) for (const owner of operators) out.push({ owner, owns: 'this website' });
  // A privacy policy's data controller is the site's operator: "Titolare del trattamento è Acme S.p.A.",
  // "Le responsable du traitement … est la société Acme SAS", "Verantwortlicher im Sinne der DSGVO ist die
  // Muster GmbH". Only a name with a strong legal form: "the controller is the operator of this site" names nobody.
  for (const m of text.matchAll(CONTROLLER)) {
    const after = m.index + m[0].length;
    const owner = ownerAfter(ownerLine(text, after));
    if (owner && nameLike(owner) && hasStrongLegalForm(owner)) out.push({ owner: normalizeLine(owner), owns: 'this website' });
  }
  // The merchant of record a checkout or pricing page names sells the site's goods: "Payments are
  // collected by Ferncastle Labs, Inc. as merchant of record". Only a name with a strong legal form.
  for (const m of text.matchAll(MERCHANT_OF_RECORD)) {
    const owner = ownerAfter(m[1]!);
    if (owner && nameLike(owner) && hasStrongLegalForm(owner)) out.push({ owner: normalizeLine(owner), owns: 'this website' });
  }
  // So does the one that invoices or bills the orders: "Online orders are fulfilled and invoiced by Barlow
  // Agri Supply, Inc." (fulfilled, packed or shipped alone is a warehouse's work).
  for (const m of text.matchAll(INVOICED_BY)) {
    const owner = ownerAfter(ownerLine(text, m.index + m[0].length));
    if (owner && nameLike(owner) && hasStrongLegalForm(owner)) out.push({ owner: normalizeLine(owner), owns: 'this website' });
  }
  // A parent group's caption, a footer segment of its own: "A Greystone Hospitality Group Ltd venue",
  // "A Berkshire Hathaway Holdings company". Only a name with a strong legal form or a group's word: "A
  // Locally Owned Business" names nobody.
  for (const m of text.matchAll(PARENT_CAPTION)) {
    const owner = normalizeLine(m[1]!);
    if (nameLike(owner) && (hasStrongLegalForm(owner) || GROUP_WORD.test(owner))) out.push({ owner, owns: 'this website' });
  }
  // The controller named before the phrase: "Swiftlane (S.L. Distribution Services Limited) is the data
  // controller for the information you submit", "Acme Ltd acts as the controller".
  for (const m of text.matchAll(CONTROLLER_AFTER)) {
    const owner = legalNameEndingAt(text, m.index, /^[\s)]*$/);
    if (owner && nameLike(owner) && hasStrongLegalForm(owner)) out.push({ owner: normalizeLine(owner), owns: 'this website' });
  }
  // The other way round: "Joseph Smith Automotive Inc. dba Joe's Garage", "Acme Services Ltd t/a Acme
  // Plumbing", "Kestrel Holdings LLC, doing business as Kestrel Print": the legal name written right
  // before the phrase trades under the name after it.
  for (const m of text.matchAll(TRADING_AS)) {
    const owner = legalNameEndingAt(text, m.index, /^[\s,(]*$/);
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 150).split('\n')[0]!;
    const end = OWNER_END.exec(rest);
    const owns = normalizeLine((end ? rest.slice(0, end.index) : rest).replace(/[®™℠]/g, '')).replace(/[.\s]+$/, '');
    if (owner && owns && /^[\p{Lu}\d]/u.test(owns) && owns.split(/\s+/).length <= 6) out.push({ owner: normalizeLine(owner), owns });
  }
  return out;
}

const CONTROLLER_AFTER = /\s+(?:is|acts\s+as)\s+(?:the\s+)?(?:data\s+)?controller\b/gi;

// The data controller of a privacy policy, named after "is" in English and the languages of the EU.
const CONTROLLER = new RegExp(
  [
    // A form's privacy note: "Information you submit is collected and handled by Acme Pools, LLC" (not a
    // payment's "card details are processed by Stripe, Inc.": information or data, and no processing alone).
    String.raw`\b(?:personal\s+)?(?:information|data)(?:\s+(?:you\s+(?:submit|provide|send|give\s+us)|submitted|provided)(?:\s+(?:here|through\s+this\s+form|on\s+this\s+(?:form|site|website)))?)?\s+(?:is|are|will\s+be)\s+(?:collected|held|handled|controlled)(?:\s+(?:and|&)\s+(?:handled|held|processed|stored|used))?\s+by\s+`,
    String.raw`\b(?:data\s+)?controller(?:\s+(?:for|of|responsible\s+for)\s+[^.\n]{0,80}?)?\s+is\s*:?\s+`,
    String.raw`(?<!\p{L})verantwortlich(?:e[r]?)?(?:\s+(?:im\s+sinne|i\.\s?s\.\s?d\.|gemäß|nach|für)[^.\n]{0,80}?)?\s+(?:ist|sind)\s*:?\s+(?:(?:die|der|das)\s+)?`,
    // The party a contract or shop text names as the provider or seller: "Anbieterin und Vertragspartnerin ist
    // die Fadenhaus AG", "Betreiber dieses Shops ist die …", "Le vendeur est la société …", "conclues entre,
    // d'une part, la société Brûlerie du Quai SAS" (a French CGV's opening), "The seller is Acme Ltd".
    String.raw`(?<!\p{L})(?:anbieter|vertragspartner|betreiber|verkäufer|diensteanbieter)(?:in)?(?:\s+(?:und|&)\s+(?:anbieter|vertragspartner|betreiber|verkäufer)(?:in)?)?(?:\s+(?:dieses|dieser|des|der)\s+[^.\n]{0,60}?)?\s+(?:ist|sind)\s*:?\s+(?:(?:die|der|das)\s+)?`,
    String.raw`(?<!\p{L})(?:le\s+vendeur|l['’](?:éditeur|exploitant)(?:\s+du\s+site)?|le\s+prestataire)\s+est\s*:?\s+(?:la\s+société\s+|l['’]entreprise\s+)?`,
    String.raw`(?<!\p{L})d['’]une\s+part,?\s+(?:la\s+société\s+|l['’]entreprise\s+)?`,
    String.raw`\bthe\s+(?:seller|vendor|provider|operator)(?:\s+of\s+(?:this|the)\s+(?:web\s?site|site|shop|store))?\s+is\s*:?\s+`,
    String.raw`(?<!\p{L})responsable\s+(?:du|de\s+ce|des)\s+traitements?(?:\s+[^.\n]{0,80}?)?\s+est\s*:?\s+`,
    String.raw`(?<!\p{L})responsable\s+del\s+tratamiento(?:\s+[^.\n]{0,80}?)?\s+es\s*:?\s+`,
    String.raw`(?<!\p{L})titolare\s+del\s+trattamento(?:\s+[^.\n]{0,80}?)?\s+è\s*:?\s+`,
    String.raw`(?<!\p{L})verwerkingsverantwoordelijke(?:\s+[^.\n]{0,80}?)?\s+is\s*:?\s+`,
    // Portuguese: "O controlador dos dados pessoais é a Odontologia … Ltda."; Lithuanian: "Jūsų asmens duomenų valdytojas yra UAB …".
    String.raw`(?<!\p{L})controlador(?:a)?(?:\s+d[oe]s?\s+(?:seus\s+)?dados(?:\s+pessoais)?)?\s+é\s*:?\s+(?:a\s+|o\s+)?`,
    String.raw`(?<!\p{L})duomenų\s+valdytoja[si]\s+yra\s*:?\s+`,
    // The operator of the shop or site, named on the line or the next: "Prevádzkovateľom internetového obchodu
    // www.hojdacka.sk je spoločnosť:" (Slovak), "Provozovatelem e-shopu je společnost" (Czech).
    String.raw`(?<!\p{L})(?:prevádzkovateľom|provozovatelem)(?:\s+[^\n:]{0,80}?)?\s+je(?:\s+(?:obchodná\s+|obchodní\s+)?(?:spoločnosť|společnost))?[ \t]*:?[ \t]*`,
    // Polish: "Administratorem Twoich danych osobowych jest Edukacja Plus s.c.".
    String.raw`(?<!\p{L})administratorem\s+(?:\p{L}+\s+){0,3}?danych(?:\s+osobowych)?(?:\s+[^.\n]{0,60}?)?\s+jest\s*:?\s+`,
  ].join('|'),
  'giu',
);

const INVOICED_BY = /\b(?:invoiced|billed)\s+by\s+/gi;
const MERCHANT_OF_RECORD = /\bby\s+([^\n]{3,80}?)\s+(?:as|is)\s+(?:the\s+|our\s+)?merchant\s+of\s+record\b/gi;

const PARENT_CAPTION =
  /(?:^|[.!?|•·]\s+)An?\s+((?:[\p{Lu}\d][\p{L}\d'’.&+-]*,?\s+){1,7}?)(?:[Cc]ompany|[Vv]enue|[Bb]usiness|[Bb]rand|[Pp]roperty|[Hh]otel|[Rr]estaurant)(?=\s*(?:$|[.,|•·©]))/gmu;
const GROUP_WORD = /\s(?:Group|Holdings|Companies|Enterprises|Brands|Hospitality)$/u;

// "doing business as" and its short forms; "trading as" and "t/a" in British use.
// "operating as" and "o/a" in Canadian use, often in brackets: "Acme Graphics Limited (operating as Acme Print)".
const TRADING_AS = /\s*,?\s+\(?(?:d\/b\/a|dba|doing\s+business\s+as|trading\s+as|t\/a|operating\s+as|o\/a)\s+/giu;

// A registration line: "Acme Widgets Ltd. Registered in England and Wales (company no. 01234567)",
// "Acme Widgets Limited is registered in Scotland", "Acme GmbH, Registergericht …".
// Also a company register's or tax office's number right after the name: "Acme Ltda. – CNPJ 12.345…", "Muster
// GmbH, FN 412233 k", "Acme Pty Ltd (ABN 12 345 678 901)", "Exemple SAS – RCS Lyon 123 …", "Voorbeeld B.V., KvK 1234…".
const REGISTRATION = new RegExp(
  [
    // The name's kind said between it and the registration: "Acme Ledger Ltd, a company registered in Scotland (SC…)",
    // "Riverbend Food Co-operative Limited is a registered society under …", "Acme Trust Ltd is a registered charity".
    String.raw`(?:,\s*|\s+is\s+)an?\s+(?:(?:private|public)\s+)?(?:limited\s+)?(?:company|society|charity|partnership)\s+(?:registered|incorporated)\s+(?:in|under)\b`,
    String.raw`\s+is\s+an?\s+registered\s+(?:society|charity|company|co-?operative)\b`,
    // "Grachtwiel Mobiliteit B.V., registered with the Chamber of Commerce (KvK) under number …".
    String.raw`,\s*registered\s+(?:with|at|under)\b`,
    String.raw`\b(?:is\s+)?registered\s+in\s+(?:England|Scotland|Wales|Northern\s+Ireland|Ireland|the\s+UK\b|the\s+United\s+Kingdom)`,
    String.raw`\bregistered\s+(?:office|address|company)\b|\bcompany\s+(?:registration\s+)?(?:no\b|number\b)|\bregistergericht\b|\bhandelsregister\b`,
    // A registration number without the register's name: "Acme Community Radio NPC · Reg. No. 2009/012345/08".
    String.raw`(?<![\p{L}\p{N}])reg(?:istration)?\.?\s*(?:no\b\.?|number\b|#)\s*:?\s*[A-Z]{0,3}[\s-]?\d`,
    // "Registered in" in other languages: "Acme Ltda., inscrita no CNPJ …", "Acme SAS, immatriculée au RCS …".
    String.raw`(?<!\p{L})(?:inscrit[ao]|inscrite?|immatricul[ée]e?|iscritt[ao]|registrad[ao]|eingetragen|ingeschreven)\s+(?:no|na|au|à|en|im|in|al|nel|nella|bij|presso|sous|beim)(?!\p{L})`,
    // The registered office in the languages of the EU: "Acme S.r.l. – Sede legale: …", "Acme Kft. · Székhely: …".
    String.raw`(?<!\p{L})(?:sede\s+legale|siège\s+social|domicilio\s+social|sitz\s+der\s+gesellschaft|sídlo|se\s+sídlem|so\s+sídlom|székhely|siedziba|sede\s+social|statutaire\s+zetel)(?!\p{L})`,
    // The share capital that French, Italian and Spanish legal mentions state after the name: "SARL
    // Tilleuls Immo au capital de 8 000 €", "Acme S.r.l. – Capitale sociale € 10.000 i.v.", "capital social".
    String.raw`(?<!\p{L})(?:au\s+capital\s+(?:social\s+)?de|capitale\s+sociale|capital\s+social)(?!\p{L})`,
    // A contractor's licence after the name: "Summit Roofing, L.L.C. · ROC #334512", "Lic. No. 1043".
    String.raw`(?<![\p{L}\p{N}])(?:licen[cs]e|lic\.?|ROC|CSLB|CCB)\s*(?:no\.?|number|#)\s*:?\s*[A-Z]{0,3}[\s-]?\d`,
    // A US employer or tax number in its own format ("ein" is German prose): "Acme Fund, Inc. · EIN 83-4172290".
    String.raw`(?<![\p{L}\p{N}])(?:EIN|Tax\s+ID)(?:\s*(?:no\.?|number|#))?\s*:?\s*\d{2}-\d{7}(?!\d)`,
    String.raw`(?<![\p{L}\p{N}])(?:CNPJ|NIPC|CIF|NIF|RCS|SIRE[NT]|KvK|P\.?\s?IVA|Partita\s+IVA|REA|UID|CHE|FN|HRB|HRA|ABN|ACN|CIN|UEN|CRO|KRS|NIP|REGON|CVR|IČO|Y-tunnus|Org\.?\s?nr\.?|Organisasjonsnummer|Organisationsnummer|RFC|RUC|RUT|NIT|CUIT|MERS[İI]S|VAT|BTW|TVA|USt-?IdNr\.?|GSTIN|GST|NZBN|ΑΦΜ|Α\.Φ\.Μ\.|ΓΕΜΗ|Γ\.Ε\.ΜΗ\.|ЕИК|BCE|KBO|(?:n[°º]|numéro)\s+d['’]entreprise|ondernemingsnummer)(?![\p{L}])(?=[\s.:/-]*(?:n[°ºo]\.?:?\s*|nr\.?:?\s*)?[A-Z]{0,3}[\s-]?\d)`,
  ].join('|'),
  'giu',
);

/**
 * The legal name that ends right before `at` on its line (at most 150 characters back), with only
 * characters `gap` allows between its end and `at`; '' when there is none.
 */
function legalNameEndingAt(text: string, at: number, gap: RegExp): string {
  const lines = text.slice(Math.max(0, at - 150), at).split('\n');
  // A line of its own right under the name ("Muebles Cerro Alto, S.A. de C.V. / RFC MCA980312K47"): the line above.
  const before = lines.length > 1 && !lines[lines.length - 1]!.trim() ? lines[lines.length - 2]! : lines[lines.length - 1]!;
  const names = findLegalNamesInText(before);
  const last = names[names.length - 1] ?? prefixedNameIn(before);
  return last && gap.test(before.slice(before.lastIndexOf(last) + last.length)) ? last : '';
}

/** What may stand between a legal name and its registration: separators, and one defined term in brackets. */
const NAME_TO_REGISTRATION = /^[\s.,;:|•·(–—-]*(?:\((?:the\s+)?["“‘']?\p{L}[\p{L}\s]{0,29}["”’']?\)[\s.,;:|•·–—-]*)?$/u;

/** The legal names that a registration line registers: the name with a legal form just before it. */
export function registeredNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(REGISTRATION)) {
    // Only a name that ends right before the line ("… Ltd. Registered in", "… Limited is registered in").
    // A defined term may sit between: "Harakeke Retail Limited (the Seller), NZBN 9429…".
    const name = legalNameEndingAt(text, m.index, NAME_TO_REGISTRATION) || detailsLineOpener(text, m.index);
    if (name) out.push(name);
  }
  return out;
}

/**
 * The legal name that opens a company-details line whose fields a footer separates ("Nuvola Gelati
 * S.r.l.s. – Via Santo Stefano 14/b, 40125 Bologna – P.IVA …"): the name, then fields between "–",
 * "·", "|" or "•", then the registration at `at`; no sentence in between.
 */
function detailsLineOpener(text: string, at: number): string {
  const head = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
  const name = findLegalNamesInText(head)[0];
  if (!name || !head.trimStart().startsWith(name)) return '';
  const fields = head.trimStart().slice(name.length);
  return /\s[–—·|•]\s/.test(fields) && !/[.!?]\s+\p{Lu}\p{Ll}/u.test(fields) ? name : '';
}

/**
 * Legal names that head an address: a line that is only a name with a strong legal form, with a postal
 * address on the lines right under it ("Kontakt / Wiesner Elektrotechnik GmbH / Freistädter Straße 214 /
 * 4040 Linz"). Like a registration line, it states the entity at that address.
 */
export function addressedNames(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length > 100 || !hasStrongLegalForm(line)) continue;
    const name = findLegalNamesInText(line).find((n) => n === line || n === line.replace(/[.,]$/, ''));
    if (!name) continue;
    const below = lines.slice(i + 1, i + 4).join('\n');
    const first = lines[i + 1]!.trim().slice(0, 8);
    if (first && extractTextAddresses(below).some((a) => a.startsWith(first))) out.push(name);
  }
  return out;
}

// A party as contracts define it: `Acme Holdings, Inc. ("Acme", "we", "us")`, `Acme GmbH (hereinafter
// "Provider")`; and "an agreement between you and Acme, Inc.". Terms of service and privacy policies
// name the site's operator so, and name third parties the same way (`Google LLC ("Google")`).
const PARENTHESIS = /\(([^()\n]{1,160})\)/g;
const QUOTED = /["“”„«»]\s*([^"“”„«»\n]{1,40}?)\s*["“”„«»]|(?<!\p{L})['‘’]\s*([^'‘’\n]{1,40}?)\s*['‘’](?!\p{L})/gu;
// What a definition's parenthesis holds besides its quoted terms.
const DEFINITION_WORDS = new Set([
  'and',
  'or',
  'the',
  'collectively',
  'together',
  'jointly',
  'individually',
  'hereinafter',
  'hereafter',
  'referred',
  'to',
  'as',
  'also',
  'known',
  'each',
  'a',
  // "nachfolgend", "im Folgenden", "ci-après", "en adelante", "di seguito", "hierna" (German, French, Spanish, Italian, Dutch).
  'nachfolgend',
  'im',
  'folgenden',
  'auch',
  'genannt',
  'kurz',
  'ci-après',
  'dénommée',
  'dénommé',
  'en',
  'adelante',
  // "en lo sucesivo … o …" (Mexico), "doravante" (Portuguese).
  'lo',
  'sucesivo',
  'o',
  'doravante',
  // Korean "이하" (hereinafter), Thai "หรือ" (or).
  '이하',
  'หรือ',
  'denominada',
  'denominado',
  'di',
  'seguito',
  'hierna',
  'te',
  'noemen',
  'der',
  'die',
  'le',
  'la',
  'el',
  'il',
  'de',
  'het',
  'und',
  'et',
  'y',
  'e',
  'oder',
  'ou',
  'o',
  'of',
]);
// A defined term that is the site's operator speaking: "we", "us", "the Provider", "the Controller".
// Not "the Company": a press release defines its issuer so (`Acme Corp. (the "Company") today announced`),
// and a news site quoting one is not that issuer's site.
// In other languages: "wir", "Anbieter", "Betreiber", "Verantwortlicher" (German), "nous", "le Prestataire",
// "l'Éditeur" (French), "nosotros", "el Prestador" (Spanish), "noi", "il Fornitore", "il Titolare" (Italian), "wij" (Dutch).
const SELF_TERM =
  /^(?:the\s+|der\s+|die\s+|le\s+|la\s+|l['’]|el\s+|il\s+|de\s+)?(?:we|us|our|operator|provider|service\s+provider|controller|data\s+controller|wir|uns|anbieter(?:in)?|betreiber(?:in)?|verantwortliche[r]?|nous|prestataire|éditeur|editeur|exploitant|responsable(?:\s+du\s+traitement)?|nosotros|prestador|titular|responsable|noi|fornitore|titolare|gestore|wij|ons|aanbieder|verwerkingsverantwoordelijke|회사|당사|当社|บริษัท|เรา)$/iu;
// "An agreement between you and Acme, LLC", and the same in German, French, Spanish and Italian.
const BETWEEN_YOU_AND =
  /(?<!\p{L})(?:between\s+you\s+and|zwischen\s+(?:Ihnen|dir|dem\s+Nutzer|dem\s+Kunden)\s+und|entre\s+vous\s+et|entre\s+(?:usted|el\s+usuario)\s+y|tra\s+(?:te|voi|l['’]utente)\s+e)\s+(?:the\s+|der\s+|la\s+|le\s+|el\s+|il\s+)?/giu;

// Terms that define the first person outright: "In these terms, “we”, “us” and “our” means Acme B.V.",
// "references to 'we' or 'us' are to Acme Ltd", "“We” refers to Acme, LLC".
const WE_MEANS =
  /["“'‘](?:we|us|our)["”'’](?:,?[ \t]*(?:(?:and|or)[ \t]+)?["“'‘](?:we|us|our)["”'’]){0,3}\s+(?:means?|refers?\s+to|are\s+to|is)\s+(?:the\s+)?/giu;

/**
 * The parties a text defines as contracts do, as ownership statements: the legal name, and what it is
 * defined as ("Acme"; "this website" where the term is "we", "us" or "the Provider", and for the
 * other party of an agreement "between you and …"). A definition without a legal form names nobody.
 */
export function definedParties(text: string): Array<{ owner: string; owns: string }> {
  const out: Array<{ owner: string; owns: string }> = [];
  for (const m of text.matchAll(PARENTHESIS)) {
    const inner = m[1]!;
    const terms = [...inner.matchAll(QUOTED)].map((q) => normalizeLine(q[1] ?? q[2] ?? '')).filter(Boolean);
    if (!terms.length) continue;
    const rest = inner
      .replace(QUOTED, ' ')
      .split(/[\s,;:]+/)
      .filter(Boolean);
    if (!rest.every((w) => DEFINITION_WORDS.has(w.toLowerCase()))) continue;
    const last = legalNameEndingAt(text, m.index, /^[\s,]*$/);
    if (!last) continue;
    const self = terms.some((t) => SELF_TERM.test(t));
    // A German sentence opens with the article: "Die Muster GmbH (nachfolgend „Anbieter“)".
    out.push({ owner: last.replace(/^(?:Die|Der|Das)\s+(?=\p{Lu})/u, ''), owns: self ? 'this website' : terms[0]! });
  }
  for (const m of [...text.matchAll(BETWEEN_YOU_AND), ...text.matchAll(WE_MEANS)]) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 150).split('\n')[0]!;
    const legal = findLegalNamesInText(rest)[0];
    if (legal && rest.startsWith(legal.split(/[\s,]/)[0]!)) out.push({ owner: legal, owns: 'this website' });
  }
  return out;
}

// With the home, welcome, contact and imprint labels of other languages ("Startseite", "Inicio", "Strona główna").
const GENERIC_TITLE =
  /^(?:home|homepage|home page|welcome|index|main|start|startseite|willkommen|kontakt|impressum|accueil|bienvenue|inicio|início|bienvenido|bienvenidos|página (?:de )?inicio|página principal|pagina iniziale|benvenuti|strona główna|etusivu|forside|hjem|startsida|főoldal|úvodní stránka|anasayfa|ana sayfa|welkom|トップページ|トップ|ホーム|公式|公式サイト|会社概要|会社案内|企業情報|お問い合わせ|首页|首頁|主页|官网|官方网站|公司简介|关于我们|联系我们|홈|공식|회사소개|contact(?: us)?|about(?: us)?|official site|official website|untitled|page not found|404|blog|news|shop|store)$/iu;
// A page heading made of navigation words ("Office Locations", "Our Services", "Products & Services"):
// the page's subject, not the site's name.
const HEADING_WORD =
  '(?:locations?|offices?|services?|products?|solutions?|projects?|gallery|portfolio|careers?|jobs|team|staff|testimonials?|events?|resources?|faqs?|pricing|news|blog|shop|store|contact|about|directions|hours|menu|specials|links)';
const HEADING = new RegExp(`^(?:(?:our|office|the|all|latest|new|and|&)\\s+)*${HEADING_WORD}(?:\\s+(?:and|&)\\s+${HEADING_WORD})?$`, 'i');

/** The parts of a page title that can be a site name: "Contact | Acme Widgets" -> ["Contact", "Acme Widgets"]. */
export function titleSegments(title: string): string[] {
  return (
    normalizeLine(title)
      // Full-width bars and colons, and the lenticular brackets of Japanese and Chinese titles, separate too.
      .split(/\s+[|–—:·»«~]\s+|\s+-{1,2}\s+|\s*[|｜]\s*|::|\s*[：【】]\s*/)
      // "Welcome to Acme", and the page's own label in front of the name: "Contact Acme Widgets", "About Acme Widgets".
      .map((s) =>
        s
          .replace(/^(?:welcome to|willkommen (?:bei|auf|in)|bienvenue (?:chez|sur|à)|bienvenido a|benvenuti (?:da|su|in)|welkom bij)\s+/iu, '')
          .replace(/^(?:about|contact)(?:\s+us)?\s+(?:the\s+)?(?=\S+\s+\S)/i, '')
          .trim(),
      )
      .filter((s) => s && !GENERIC_TITLE.test(s) && !HEADING.test(s) && s.split(/\s+/).length <= 7)
  );
}

/**
 * Names written in the text that spell the site's domain: "Darling Homes" on darlinghomes.com,
 * "H&S Solicitors" on handssolicitors.co.uk, "Leeward Productions" on leewardpro.com (a prefix).
 * Most reliable on small sites that state their name nowhere else.
 */
export function domainSpelledNames(text: string, label: string): string[] {
  const d = label.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (d.length < 4) return [];
  const words = text.split(/[\s|,;:()"“”]+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const firstChar = compact(words[i]!.replace(/&/g, 'and'))[0];
    if (!firstChar || !d.startsWith(firstChar)) continue;
    let acc = '';
    for (let j = i; j < Math.min(words.length, i + 6); j++) {
      acc += compact(words[j]!.replace(/&/g, 'and'));
      const tld = acc.startsWith(d) ? acc.slice(d.length) : null;
      const exact = acc === d || (tld !== null && /^(?:com|net|org|co|us|ca|couk|comau|info|biz)$/.test(tld));
      // A domain that abbreviates the name's last word: leewardpro -> Leeward Productions.
      const prefix =
        tld !== null &&
        !exact &&
        j > i &&
        d.length >= 6 &&
        acc.length - d.length <= 12 &&
        compact(words[j]!).startsWith(d.slice(acc.length - compact(words[j]!).length)) &&
        // not a word glued to the next one ("Caffè LanternaMiscela": a product card's brand and name)
        !/\p{Ll}\p{Lu}/u.test(words[j]!);
      if (exact || prefix) {
        const name = words
          .slice(i, j + 1)
          .join(' ')
          .replace(/^[^\p{L}\d]+|[^\p{L}\d.]+$/gu, '')
          .replace(/\.$/, '');
        if (/^[\p{Lu}\d]/u.test(name) || /\p{Lu}/u.test(name.slice(1))) out.push(name);
        break;
      }
      if (!d.startsWith(acc)) break;
    }
  }
  return out;
}

export interface PageNameFacts {
  /** The distinctive label of the site's domain ("acme" for www.acme.co.uk). */
  domainLabel: string;
  title: string;
  ogSiteName: string;
  applicationName: string;
  /** Alt texts of the site's logo images (logo-marked or the header's home link). */
  logoAlts?: string[];
  visibleText: string;
  footerText: string;
  jsonLd: StructuredData;
  microdata: StructuredData;
}

/** A bare host name or URL ("bookstore.acme-usa.org", "http://www.acme.com") names nothing the URL does not. */
export function isBareHost(name: string): boolean {
  return /^(?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}\/?$/.test(name.trim());
}

/** "Acme Widgets logo", "Top banner: Acme Widgets Logo(TM). Established 1989." -> "Acme Widgets". */
export function logoAltName(alt: string): string {
  const cut = normalizeLine(alt)
    .replace(/\s*\b(?:home\s*page\s+)?logo\b.*$/i, '')
    .replace(/^.*:\s+/, '');
  return titleSegments(cut)[0] ?? '';
}

/** Structured data's organisations and site names. */
function structuredCandidates(p: PageNameFacts, push: (name: string, source: NameSource, weight: number, legal?: boolean, owns?: string) => void): void {
  for (const [data, source] of [
    [p.jsonLd, 'jsonld'],
    [p.microdata, 'microdata'],
  ] as const) {
    for (const org of data.orgs) {
      const roleWeight = org.role === 'main' ? 1 : org.role === 'publisher' ? 0.8 : 0.35;
      // The parent the page's own organisation names (`parentOrganization`) is read as an ownership
      // statement about the site ("Snapgram is owned by Bigco Platforms, Inc."): its legal name, or its
      // name when written with a strong legal form, is the legal entity unless the organisation states
      // its own with a strong form (owner-name.ts, ownersStated). It never chooses the organisation.
      if (org.role === 'parent') {
        const stated = org.legalName || (hasStrongLegalForm(org.name) ? org.name : '');
        if (stated) push(stated, source, 1.0 * roleWeight, true, 'this website');
        continue;
      }
      // A legalName that is not a spelling of the organisation's name ("Paperbark HR" with legalName
      // "Gumleaf Software Pty Ltd") is the legal entity behind that name, read like an ownership
      // statement about it: it names the legal entity once the organisation is chosen, and does not
      // choose it (a brand's own name and its operating company would otherwise compete as two owners).
      const owns = org.legalName && org.name && org.role !== 'nested' && !sameCompany(org.legalName, org.name) ? org.name : undefined;
      if (org.legalName) push(org.legalName, source, 1.0 * roleWeight, org.role !== 'nested', owns);
      if (org.name) push(org.name, source, 0.8 * roleWeight);
    }
    for (const n of data.siteNames) push(n, source, 0.5);
  }
}

/** Two spellings of one company: equal, or one beginning with the other, once legal forms are set aside. */
function sameCompany(a: string, b: string): boolean {
  const [x, y] = [a, b].map((n) => compact(stripLegalForm(n)).replace(/^the(?=.{4})/, ''));
  return !!x && !!y && (x.startsWith(y) || y.startsWith(x));
}

// Words that open a sentence right before a name ("At Acme Widgets, Inc., we …", "Contact Acme Widgets,
// LLC today", "Welcome To …", "Bei Müller GmbH …"): capitalised, so the name's words run on into them.
const OPENERS = new Set(
  (
    'at about by from with to here welcome thank thanks contact call email e-mail phone write visit choose why hire join meet ask ' +
    'discover explore introducing today please dear hello hi ' +
    'bei mit von über kontakt kontaktieren willkommen chez avec contactez bienvenue con contacte bienvenido bienvenidos benvenuti presso bij welkom ' +
    // German articles open a sentence about a company ("Die Zwyssig Maschinenbau AG entwickelt …").
    'die der das'
  ).split(' '),
);

/**
 * A legal name read from running text without the sentence words that open it, unless the site's own
 * domain spells them as part of its name ("At Home Group Inc." on athomegroup.com).
 */
export function withoutOpeners(name: string, domainLabel: string): string {
  let words = name.split(' ');
  while (words.length > 2 && OPENERS.has(words[0]!.toLowerCase()) && !domainLabel.startsWith(compact(`${words[0]}${words[1]}`))) {
    words = words.slice(1);
  }
  return words.join(' ');
}

/** A word of the name (four letters or more) is in the domain's label, or the label in the name: "Wiesner" on elektro-wiesner.at. */
function sharesWordWithDomain(name: string, domainLabel: string): boolean {
  const d = compact(domainLabel);
  const words = stripLegalForm(name)
    .split(/[\s-]+/)
    .map(compact)
    .filter((w) => w.length >= 4);
  return d.length >= 4 && (words.some((w) => d.includes(w)) || compact(stripLegalForm(name)).includes(d));
}

/** Every naming of an organisation on one page, weighted by how much its place can be trusted. */
const LATIN_LETTER = /\p{Script=Latin}/u;
const OTHER_SCRIPT_LETTER = /(?!\p{Script=Latin})\p{L}/u;

/**
 * A name in a script other than Latin, then the same name in Latin letters, or the other way round
 * ("ゲストハウス灯り Guesthouse Akari"): the two parts, each of whole words of one script only.
 */
export function twoScriptParts(name: string): [string, string] | null {
  const words = name.split(/\s+/).filter(Boolean);
  const kind = words.map((w) => (OTHER_SCRIPT_LETTER.test(w) ? (LATIN_LETTER.test(w) ? 'mixed' : 'other') : LATIN_LETTER.test(w) ? 'latin' : 'none'));
  if (kind.includes('mixed')) return null;
  const firstLetter = kind.find((k) => k !== 'none');
  const at = kind.findIndex((k) => k !== 'none' && k !== firstLetter);
  if (!firstLetter || at < 0 || kind.slice(at).some((k) => k === firstLetter)) return null;
  return [words.slice(0, at).join(' '), words.slice(at).join(' ')];
}

export function collectNameCandidates(p: PageNameFacts): NameCandidate[] {
  const out: NameCandidate[] = [];
  const push = (name: string, source: NameSource, weight: number, legal = false, owns?: string): void => {
    // A service or trade mark glued to the last word ("Tropical Web WorksSM") is no part of the name.
    const n = normalizeLine(name)
      .replace(/(?<=\p{Ll})(?:SM|TM)$/u, '')
      .replace(/[®™℠]/g, '')
      .trim();
    // A bare host name says little: it stays a candidate of last resort.
    if (n && n.length <= 120 && /\p{L}/u.test(n))
      out.push({ name: n, source, weight: isBareHost(n) ? 0.3 * weight : weight, ...(legal ? { legal } : {}), ...(owns ? { owns } : {}) });
  };
  structuredCandidates(p, push);
  // The footer is where a site states its owner; a copyright line elsewhere in the text counts less.
  const footer = copyrightStatements(p.footerText);
  for (const c of footer) push(c.holder, 'footer', 0.7, c.opensLine);
  for (const c of copyrightStatements(p.visibleText)) if (!footer.some((f) => f.holder === c.holder)) push(c.holder, 'footer', 0.6, c.opensLine);
  for (const n of imprintNames(p.visibleText)) push(n, 'imprint', 0.9, true);
  // A company profile's "Company name: Acme Widgets Ltd" (会社名, Firma, Raison sociale): stated like an imprint.
  for (const n of profileNames(p.visibleText)) push(n, 'imprint', 0.9, true);
  for (const o of ownershipStatements(p.visibleText)) push(o.owner, 'text', 0.9, true, o.owns);
  for (const n of statedLegalNames(p.visibleText)) push(n, 'imprint', 0.9, true, OWN_LEGAL_NAME);
  // A party a terms or privacy text defines (`Acme, Inc. ("we")`): read like an ownership statement.
  for (const o of definedParties(p.visibleText)) push(o.owner, 'text', 0.9, true, o.owns);
  // A registration line states the legal entity it registers; like an ownership statement it counts
  // only for the site's own organisation (a group's pages register their sister companies too).
  for (const n of registeredNames(p.visibleText)) push(n, 'imprint', 0.9, true, n);
  // So does a legal name heading a postal address (a contact block, a letterhead), when it shares a word
  // with the domain: a contact page lists other organisations' addresses too.
  for (const n of addressedNames(p.visibleText)) if (sharesWordWithDomain(n, p.domainLabel)) push(n, 'imprint', 0.9, true, n);
  if (p.ogSiteName) push(p.ogSiteName, 'og', 0.5);
  if (p.applicationName) push(p.applicationName, 'og', 0.3);
  for (const alt of p.logoAlts ?? []) push(logoAltName(alt), 'logo', 0.4);
  for (const s of titleSegments(p.title)) push(s, 'title', 0.3);
  for (const n of readLegalNamesInText(p.visibleText).slice(0, 60)) push(withoutOpeners(n.name, p.domainLabel), 'text', n.extended ? 0.1 : 0.2);
  // Spellings of the domain: each repeated sighting adds a little, up to the weight of a footer line.
  const spelled = new Map<string, number>();
  for (const n of [...domainSpelledNames(p.title, p.domainLabel), ...domainSpelledNames(p.visibleText, p.domainLabel)]) {
    spelled.set(n, (spelled.get(n) ?? 0) + 1);
  }
  for (const [n, count] of spelled) push(n, 'text', Math.min(0.6, 0.3 + 0.1 * (count - 1)));
  // A name in Chinese, Japanese or Korean that the text also writes with its legal form
  // ("税理士法人かえでばし会計は…" beside the logo's "かえでばし会計"): the text reader above needs spaces.
  for (const n of new Set(out.map((c) => c.name))) {
    const legal = cjkLegalSpellingIn(n, p.visibleText) ?? cjkLegalSpellingIn(n, p.footerText);
    if (legal) push(legal, 'text', 0.6, true);
  }
  // A name written in two scripts, its own and Latin ("ゲストハウス灯り Guesthouse Akari" in a copyright line),
  // is the spelling the page also writes alone, where it does (the og:site_name's "ゲストハウス灯り").
  const written = new Set(out.map((c) => c.name));
  for (const c of out) {
    const alone = twoScriptParts(c.name)?.find((part) => written.has(part));
    if (alone) c.name = alone;
  }
  // A name the page credits with making or running the site: the chooser takes it only if it is the site's own.
  const credited = creditedNames(p.visibleText);
  return credited.size ? out.map((c) => (credited.has(compact(stripLegalForm(c.name))) ? { ...c, credited: true } : c)) : out;
}
