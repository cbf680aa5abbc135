import { describe, expect, it } from 'vitest';
import {
  collectNameCandidates,
  copyrightHolders,
  creditedNames,
  copyrightStatements,
  definedParties,
  profileNames,
  domainSpelledNames,
  statedLegalNames,
  findLegalNamesInText,
  readLegalNamesInText,
  imprintNames,
  isBareHost,
  logoAltName,
  ownershipStatements,
  addressedNames,
  registeredNames,
  titleSegments,
  twoScriptParts,
  withoutOpeners,
} from './legal-name.ts';
import { chooseOwnerNames as chooseLegalName, ownerAffinity } from './owner-name.ts';
import { readJsonLd } from './jsonld.ts';
import { cjkLegalSpellingIn, legalFormOf } from './legal-forms.ts';

const empty = { orgs: [], siteNames: [], looseAddresses: [], emails: [] };

describe('a legal name the page states as its own', () => {
  it('reads "Its legal name is …" and "The University\'s legal name is …", however long the statutory name', () => {
    expect(statedLegalNames('The board is a Crown entity. Its legal name is The Board of Trustees of Kōwhai Downs School. Name Role')).toEqual([
      'The Board of Trustees of Kōwhai Downs School',
    ]);
    expect(
      statedLegalNames("The University's legal name is The Chancellor, Masters and Scholars of the University of Castlemere. It is a corporation"),
    ).toEqual(['The Chancellor, Masters and Scholars of the University of Castlemere']);
    expect(statedLegalNames('Its legal name is registered with the state.')).toEqual([]);
    // a story about another company
    expect(statedLegalNames("Analysts said the company's legal name is Northwind Holdings plc.")).toEqual([]);
  });
});

describe('copyright lines', () => {
  it.each([
    ['© 2024 Acme Widgets, Inc. All rights reserved.', 'Acme Widgets, Inc.'],
    ['Copyright © 1995-2014 BlueDogInk.com', 'BlueDogInk.com'],
    ['Copyright (c) 2013 Leeward Productions. All rights reserved. Atlas Duraplates is a trademark.', 'Leeward Productions'],
    ['© 2014 zynk Design. 3rd Floor The Hospital Club, 24 Endell Street', 'zynk Design'],
    ['© 2019–2024 Muster GmbH | Impressum | Datenschutz', 'Muster GmbH'],
    ['Copyright 2012 by Prepress Express Ltd - Registered in England', 'Prepress Express Ltd'],
    // "All rights reserved" in other languages, footer links and tax numbers end the holder; not at its start.
    ['© 2024 Pasticceria Rossi Tutti i diritti riservati', 'Pasticceria Rossi'],
    ['© 2024 Bakkerij de Vries Alle rechten voorbehouden', 'Bakkerij de Vries'],
    ['© 2024 Padaria Lisboa Todos os direitos reservados', 'Padaria Lisboa'],
    ['© 2024 Piekarnia Nowak Wszelkie prawa zastrzeżone', 'Piekarnia Nowak'],
    ['© 2024 Bageri Lund Alla rättigheter förbehållna', 'Bageri Lund'],
    ['© 2024 Pekárna Novák Všechna práva vyhrazena', 'Pekárna Novák'],
    ['© 2024 Fırın Yılmaz Tüm hakları saklıdır', 'Fırın Yılmaz'],
    ['© 2024 Bäckerei Schröder Datenschutz Impressum', 'Bäckerei Schröder'],
    ['© 2024 Boulangerie Martin Mentions légales', 'Boulangerie Martin'],
    // A site builder's template "© 2026 by …" in its other languages.
    ['© 2026 par Domaine des Trois Bornes. Créé avec Wix.com', 'Domaine des Trois Bornes'],
    ['© 2026 von Hofladen Brenner. Erstellt mit Wix.com', 'Hofladen Brenner'],
    ['© 2026 por Bodega Los Almendros. Creado con Wix.com', 'Bodega Los Almendros'],
    ['© 2024 Forno Bianchi P.IVA 01234567890', 'Forno Bianchi'],
    ['© 2024 Cookie Jar Bakery Cookie Policy', 'Cookie Jar Bakery'],
    ['© 2024 Crumbly Cookies', 'Crumbly Cookies'],
    ['© 2024 Blue Siren', 'Blue Siren'],
    ['© 2024 Studio Lumière SIRET 123 456 789 00012', 'Studio Lumière'],
    ['© 2024 Acme Trading VAT No. GB123456789', 'Acme Trading'],
  ])('%s -> %s', (line, holder) => {
    expect(copyrightHolders(`Home | About\n${line}`)).toEqual([holder]);
  });

  it('leaves out the web agency credited on the same line', () => {
    expect(copyrightHolders('© 2024 Acme Widgets · Website by PixelWorks LLC')).toEqual(['Acme Widgets']);
    expect(copyrightHolders('© 2024 Bäckerei Schröder Webdesign: Pixelwerk GmbH')).toEqual(['Bäckerei Schröder']);
    expect(copyrightHolders('© 2024 Boulangerie Martin Réalisé par Agence Pixel SARL')).toEqual(['Boulangerie Martin']);
    expect(copyrightHolders('© 2024 Forno Bianchi realizzato da Studio Web Srl')).toEqual(['Forno Bianchi']);
  });
});

describe('legal names in text and imprints', () => {
  it('finds names before a legal form and skips years and lists of state codes', () => {
    // "Welcome to" may open a name ("Hotels on Main"): read with it first, then without it.
    expect(findLegalNamesInText('Welcome to Canak Windows & Doors Inc. since 1985. © 2014 Taylor Morrison, Inc.')).toEqual([
      'Welcome to Canak Windows & Doors Inc.',
      'Canak Windows & Doors Inc.',
      'Taylor Morrison, Inc.',
    ]);
    expect(findLegalNamesInText('AL AK AZ MA MI MN MS MO MT NE NV')).toEqual([]);
    // The recipient of a postal address ("c/o", "care of") receives the mail: no statement of who runs the site.
    expect(findLegalNamesInText('Send returns to: Loomwell Returns, c/o Parcel Hub Logistics Ltd, Unit 4, Dock Road')).toEqual([]);
    expect(findLegalNamesInText('Loomwell Studio Ltd, care of Brightdesk Offices Ltd, 12 High Street')).toEqual(['Loomwell Studio Ltd']);
    // A national bank's charter keeps its last dot ("N.A" was cut as the sentence's full stop).
    expect(findLegalNamesInText('© 2025 Harborline Bank, N.A. All rights reserved. Member FDIC.')).toEqual(['Harborline Bank, N.A.']);
    expect(findLegalNamesInText('© 2024 Acme Trading FZ-LLC. All rights reserved. Acme Yazılım Ltd. Şti. | Acme (Pty) Ltd')).toEqual([
      'Acme Trading FZ-LLC',
      'Acme Yazılım Ltd. Şti.',
      'Acme (Pty) Ltd',
    ]);
  });

  it('reads a name with the words that may open it, marked, then without them', () => {
    expect(readLegalNamesInText('Write or call us: Katz, Marshall & Banks, LLP 1718 Connecticut Ave.')).toEqual([
      { name: 'Katz, Marshall & Banks, LLP', extended: true },
      { name: 'Marshall & Banks, LLP', extended: false },
    ]);
    expect(readLegalNamesInText('© 2015 Hotels on Main, LLC')).toEqual([
      { name: 'Hotels on Main, LLC', extended: true },
      { name: 'Main, LLC', extended: false },
    ]);
    // digits, a legal form ending in a dot and lower-case words open nothing
    expect(readLegalNamesInText('Since 1985, Acme Ltd').map((n) => n.extended)).toEqual([false]);
    expect(findLegalNamesInText('Apple Inc., Google LLC')).toEqual(['Apple Inc.', 'Google LLC']);
    expect(findLegalNamesInText('we sell to Acme Ltd')).toEqual(['Acme Ltd']);
  });

  it('reads camel-cased brand words and leaves "Copyright" and its year out', () => {
    expect(findLegalNamesInText('© 2015 eBay Inc. All rights reserved.')).toEqual(['eBay Inc.']);
    expect(findLegalNamesInText('© eHealth Insurance Services, Inc.')).toEqual(['eHealth Insurance Services, Inc.']);
    expect(findLegalNamesInText('Copyright 2014 iRobot Corporation')).toEqual(['iRobot Corporation']);
    expect(findLegalNamesInText('Copyright Acme Widgets Ltd')).toEqual(['Acme Widgets Ltd']);
  });

  it('lets the domain choose between a name with and without the words that may open it', () => {
    const choose = (domainLabel: string, visibleText: string): string | undefined =>
      chooseLegalName(
        collectNameCandidates({
          domainLabel,
          title: 'Contact Us',
          ogSiteName: '',
          applicationName: '',
          visibleText,
          footerText: '',
          jsonLd: empty,
          microdata: empty,
        }),
        domainLabel,
        [],
      )?.name;
    expect(choose('kmblegal', 'Write or call us: Katz, Marshall & Banks, LLP 1718 Connecticut Ave.')).toBe('Katz, Marshall & Banks, LLP');
    expect(choose('hotelsonmain', 'Book a room. Hotels on Main, LLC, 12 Main St.')).toBe('Hotels on Main, LLC');
    // no word of the domain: the shorter reading, as before
    expect(choose('example-firm', 'Located in Toronto, Ontario Widgets Inc. makes widgets')).toBe('Ontario Widgets Inc.');
    expect(choose('acmewidgets', 'Welcome to Acme Widgets Ltd')).toBe('Acme Widgets Ltd');
  });

  it('starts a name after a sentence end in its words, and reads no English form written in lower case', () => {
    expect(findLegalNamesInText('Fitzroy Hale Legal Pty Ltd trading as Fitzroy Hale Lawyers. Liability limited by a scheme approved.')).toEqual([
      'Fitzroy Hale Legal Pty Ltd',
    ]);
    expect(findLegalNamesInText('We deliver to Leeds and York Farms. Harrow Fresh Foods Ltd is our supplier.')).toContain('Harrow Fresh Foods Ltd');
    // A capitalised word of four letters ends a sentence too ("Cork."); an abbreviation does not.
    expect(findLegalNamesInText('Offices in Dublin and Cork. Mereside Health Technologies Limited is the company')).toEqual([
      'Mereside Health Technologies Limited',
    ]);
    expect(findLegalNamesInText('Acme Natl. Holdings Ltd and Grey Intl. Partners LLC')).toEqual(['Acme Natl. Holdings Ltd', 'Grey Intl. Partners LLC']);
    expect(findLegalNamesInText('Warner Bros. Entertainment Inc. and Acme Assoc. Holdings Ltd')).toEqual([
      'Warner Bros. Entertainment Inc.',
      'Acme Assoc. Holdings Ltd',
    ]);
    // Forms other languages write in lower case stay forms; South Africa's NPC is a form.
    expect(findLegalNamesInText('Provozovatel: Lipová Hospoda s.r.o.')).toContain('Lipová Hospoda s.r.o.');
    expect(findLegalNamesInText('registered as a non-profit company, Thandeka Youth Sport NPC (Reg. No. 2015/098765/08)')).toEqual([
      'Thandeka Youth Sport NPC',
    ]);
    // An acronym ending the sentence before it is not the name's first word; "Reg. No." registers the name.
    const radio = 'Riverbend FM is licensed by ICASA. Riverbend Community Radio NPC · Reg. No. 2009/012345/08';
    expect(findLegalNamesInText(radio)).toEqual(['Riverbend Community Radio NPC']);
    expect(registeredNames(radio)).toEqual(['Riverbend Community Radio NPC']);
    expect(registeredNames('Acme Widgets Ltd | Registration number: SC123456')).toEqual(['Acme Widgets Ltd']);
    // A defined term in brackets may stand between the name and its registration; a sentence may not.
    expect(registeredNames('sold to you by Harakeke Retail Limited (the Seller), NZBN 9429047615382, 18 Garnet Avenue')).toEqual(['Harakeke Retail Limited']);
    expect(registeredNames('Acme Widgets Ltd ("Acme") · Company No. 01234567')).toEqual(['Acme Widgets Ltd']);
    expect(registeredNames('We pay Stripe Payments Ltd. Our details: NZBN 9429047615382')).toEqual([]);
    // Fulfilled or shipped alone is a warehouse's work, not the seller's.
    expect(ownershipStatements('Orders are packed and shipped by Southern Cross Fulfilment Pty Ltd.')).toEqual([]);
    // A copyright holder ends where a clause says who runs it.
    expect(copyrightStatements('© 2025 Tamarack Millwork, operated by 2418763 Ontario Inc. · Privacy Policy')).toEqual([
      { holder: 'Tamarack Millwork', opensLine: true },
    ]);
    // An acronym inside a name, or one with no lower-case word before it, stays.
    expect(findLegalNamesInText('we buy from ACME PLASTICS. Tri Molding Corp')).toEqual(['ACME PLASTICS. Tri Molding Corp']);
    expect(findLegalNamesInText('ICASA. Riverbend Community Radio NPC')).toEqual(['ICASA. Riverbend Community Radio NPC']);
  });

  it('reads French forms written before the name, an Italian società semplice, and the share capital as a registration', () => {
    const text = 'Instagram\nSARL Tilleuls Immo au capital de 8 000 € – RCS Lyon 812 345 678 – Carte professionnelle n° CPI 6901';
    expect(findLegalNamesInText(text)).toContain('SARL Tilleuls Immo');
    expect(registeredNames(text)).toEqual(['SARL Tilleuls Immo']);
    expect(findLegalNamesInText('Società Agricola Poggio Ferrante S.S. · P.IVA e C.F. 01384620529')).toEqual(['Società Agricola Poggio Ferrante S.S.']);
    expect(registeredNames('Nuvola Gelati S.r.l. – Capitale sociale € 10.000 i.v.')).toEqual(['Nuvola Gelati S.r.l.']);
    // Not a prefix form without a capitalised name after it, nor SAS inside a name.
    expect(findLegalNamesInText('Paiement par SAS bancaire, livraison offerte')).toEqual([]);
  });

  it('reads the company under a company-details heading as under an imprint', () => {
    expect(imprintNames('Zakupy\nDane firmy\n Meble Nowak sp. z o.o.\nul. Rzemieślnicza 7, 62-020 Swarzędz\nKRS 0000712345')).toEqual([
      'Meble Nowak sp. z o.o.',
    ]);
    expect(imprintNames('Company details\nHarbour Tiles Ltd\n12 Quay Street, Bristol BS1 4DB')).toEqual(['Harbour Tiles Ltd']);
  });

  it('reads names written with letters beyond ASCII whole', () => {
    expect(findLegalNamesInText('© 2024 Müller Holzbau GmbH')).toEqual(['Müller Holzbau GmbH']);
    expect(findLegalNamesInText('Société Générale S.A. · Škoda Auto a.s. · Café Olé Inc.')).toEqual([
      'Société Générale S.A.',
      'Škoda Auto a.s.',
      'Café Olé Inc.',
    ]);
    expect(imprintNames('Impressum\nBäckerei Schröder GmbH\nHauptstraße 1\n12345 Musterstadt')).toContain('Bäckerei Schröder GmbH');
  });

  it('reads the company under an Impressum heading', () => {
    const text = 'Start\nImpressum\nAngaben gemäß § 5 TMG\nBeispiel Software GmbH\nMusterstraße 12\n10115 Berlin';
    expect(imprintNames(text)).toContain('Beispiel Software GmbH');
    // Since May 2024 German imprints cite the Digitale-Dienste-Gesetz.
    expect(imprintNames('Start\nAngaben gemäß § 5 DDG\nMuster Handel GmbH\nHauptstraße 1\n12345 Musterstadt')).toContain('Muster Handel GmbH');
    expect(imprintNames('Impressum\nBetreiber: Muster Handel GmbH, Hauptstraße 1')).toEqual(['Muster Handel GmbH']);
  });

  it('reads no imprint from a footer link: a name in a sentence below it is somebody else', () => {
    const footer =
      'Vásárlás\nÁSZF\nImpresszum\nFizetés\nBankkártyás fizetés a Barion Payment Zrt. biztonságos rendszerén keresztül.\nKapcsolat\nhello@example.hu';
    expect(imprintNames(footer)).toEqual([]);
  });
});

describe('owner of the site', () => {
  it('splits titles into name-like segments', () => {
    expect(titleSegments('Contact Us | Acme Widgets')).toEqual(['Acme Widgets']);
    expect(titleSegments('Contact Quaker Steak & Lube - Best Wings')).toEqual(['Quaker Steak & Lube', 'Best Wings']);
    expect(titleSegments('About Pelletier Florist Greenhouses')).toEqual(['Pelletier Florist Greenhouses']);
    expect(titleSegments('About Time')).toEqual(['About Time']);
    expect(titleSegments('Office Locations | Our Services | Acme')).toEqual(['Acme']);
    expect(titleSegments('ToledoCars.com -- Price Quotes, Research')).toEqual(['ToledoCars.com', 'Price Quotes, Research']);
  });

  it('finds spellings of the domain in text, including abbreviated domains', () => {
    expect(domainSpelledNames('Welcome to H&S Solicitors, immigration solicitors', 'handssolicitors')).toEqual(['H&S Solicitors']);
    expect(domainSpelledNames('© 2014 Leeward Productions. All rights', 'leewardpro')).toEqual(['Leeward Productions']);
    expect(domainSpelledNames('we sell darling homes in Texas', 'darlinghomes')).toEqual([]);
    // not a word glued to the next (a product card's brand and name run together): the name alone
    expect(domainSpelledNames('Caffè LanternaMiscela Faro in grani · Caffè Lanterna', 'caffelanterna')).toEqual(['Caffè Lanterna']);
  });

  it('scores names that match the domain above partner names', () => {
    expect(ownerAffinity('Acme Widgets, Inc.', 'acmewidgets', [])).toBe(1);
    expect(ownerAffinity('Katz Marshall & Banks', 'kmblegal', [])).toBeGreaterThan(0.5);
    expect(ownerAffinity('Vail Resorts Inc.', 'amenta', [])).toBe(0);
  });

  it('prefers the owner over a client with a legal form mentioned in the text', () => {
    const candidates = collectNameCandidates({
      domainLabel: 'peacearchbusinesscenter',
      title: 'Virtual Offices | Bellingham & Whatcom County',
      ogSiteName: '',
      applicationName: '',
      visibleText:
        '"We are delighted Peace Arch Business Center is here."\nMike Kent, Realtor,\nWhatcom County, Inc.\nAbout Peace Arch Business Center l Contact Us',
      footerText: '',
      jsonLd: empty,
      microdata: empty,
    });
    expect(chooseLegalName(candidates, 'peacearchbusinesscenter', [])?.name).toBe('Peace Arch Business Center');
  });

  it('reads a name written in two scripts as the spelling the page also writes alone', () => {
    expect(twoScriptParts('ゲストハウス灯り Guesthouse Akari')).toEqual(['ゲストハウス灯り', 'Guesthouse Akari']);
    expect(twoScriptParts('Café Lumière 光')).toEqual(['Café Lumière', '光']);
    expect(twoScriptParts('Guesthouse Akari')).toBeNull();
    expect(twoScriptParts('灯り Akari ゲスト')).toBeNull();
    const candidates = collectNameCandidates({
      domainLabel: 'akari-onomichi',
      title: '尾道の坂の上の小さな宿 ゲストハウス灯り',
      ogSiteName: 'ゲストハウス灯り',
      applicationName: '',
      visibleText: 'ようこそ。\n© 2025 ゲストハウス灯り Guesthouse Akari',
      footerText: '© 2025 ゲストハウス灯り Guesthouse Akari',
      jsonLd: empty,
      microdata: empty,
    });
    expect(candidates.map((c) => c.name)).not.toContain('ゲストハウス灯り Guesthouse Akari');
    expect(chooseLegalName(candidates, 'akari-onomichi', ['ゲストハウス灯り'])?.name).toBe('ゲストハウス灯り');
  });

  it('takes legalName from JSON-LD over the brand name and keeps the legal form', () => {
    const jsonLd = readJsonLd([JSON.stringify({ '@context': 'https://schema.org', '@type': 'Organization', name: 'Acme', legalName: 'Acme Widgets, Inc.' })]);
    const candidates = collectNameCandidates({
      domainLabel: 'acme',
      title: 'Acme – Widgets for everyone',
      ogSiteName: 'Acme',
      applicationName: '',
      visibleText: '',
      footerText: '',
      jsonLd,
      microdata: empty,
    });
    const choice = chooseLegalName(candidates, 'acme', ['Acme']);
    expect(choice?.name).toBe('Acme Widgets, Inc.');
    expect(choice?.sources).toEqual(expect.arrayContaining(['jsonld', 'og', 'title']));
  });

  it('drops the sentence words that open a legal name in running text, unless the domain spells them', () => {
    expect(withoutOpeners('At Acme Widgets, Inc.', 'acmewidgets')).toBe('Acme Widgets, Inc.');
    expect(withoutOpeners('Welcome To Acme Widgets LLC', 'acmewidgets')).toBe('Acme Widgets LLC');
    expect(withoutOpeners('Bei Müller Holzbau GmbH', 'mueller-holzbau')).toBe('Müller Holzbau GmbH');
    // A German sentence opens with the article: "Die Zwyssig Maschinenbau AG entwickelt …".
    expect(withoutOpeners('Die Zwyssig Maschinenbau AG', 'zwyssig')).toBe('Zwyssig Maschinenbau AG');
    // the site's own name: its domain spells the opener with the next word
    expect(withoutOpeners('At Home Group Inc.', 'athomegroup')).toBe('At Home Group Inc.');
    // a name and its form are always left
    expect(withoutOpeners('Contact Inc.', 'contact')).toBe('Contact Inc.');
    expect(withoutOpeners('Acme Widgets LLC', 'acme')).toBe('Acme Widgets LLC');
    const candidates = collectNameCandidates({
      domainLabel: 'acmewidgets',
      title: 'Acme Widgets',
      ogSiteName: '',
      applicationName: '',
      visibleText: 'Why Choose Acme Widgets LLC?\nAt Acme Widgets LLC, we believe in quality.\nContact Acme Widgets LLC today.',
      footerText: '',
      jsonLd: empty,
      microdata: empty,
    });
    expect(candidates.filter((c) => c.source === 'text').map((c) => c.name)).toContain('Acme Widgets LLC');
    expect(candidates.map((c) => c.name).filter((n) => /^(?:Why|At|Contact|Choose)\b/.test(n))).toEqual([]);
    expect(chooseLegalName(candidates, 'acmewidgets', [])?.name).toBe('Acme Widgets LLC');
  });

  it('returns null without candidates', () => {
    expect(chooseLegalName([], 'acme', [])).toBeNull();
  });

  it("takes no copyright holder that is the page's meta author, unless the domain spells the name", () => {
    const candidates = collectNameCandidates({
      domainLabel: 'substack',
      title: 'The 40-year mortgage is coming - by Priya Raman - The Margin Call',
      ogSiteName: 'The Margin Call',
      applicationName: '',
      visibleText: 'The 40-year mortgage is coming\nBy Priya Raman\n© 2025 Priya Raman · Privacy · Terms',
      footerText: '© 2025 Priya Raman · Privacy · Terms',
      jsonLd: empty,
      microdata: empty,
    });
    const hints = ['The Margin Call'];
    expect(chooseLegalName(candidates, 'substack', hints, [], [], [])?.name).toBe('Priya Raman');
    expect(chooseLegalName(candidates, 'substack', hints, [], [], ['Priya Raman'])?.name).toBe('The Margin Call');
    // Her own site: the author is the owner; so is a site that names itself as its author.
    expect(chooseLegalName(candidates, 'priyaraman', hints, [], [], ['Priya Raman'])?.name).toBe('Priya Raman');
    expect(chooseLegalName(candidates, 'substack', ['Priya Raman'], [], [], ['Priya Raman'])?.name).toBe('Priya Raman');
    // An author written with a legal form is an organisation.
    const firm = collectNameCandidates({
      domainLabel: 'marginnews',
      title: 'Margin News',
      ogSiteName: '',
      applicationName: '',
      visibleText: '© 2025 Ledger Media LLC',
      footerText: '© 2025 Ledger Media LLC',
      jsonLd: empty,
      microdata: empty,
    });
    expect(chooseLegalName(firm, 'marginnews', [], [], [], ['Ledger Media LLC'])?.name).toBe('Ledger Media LLC');
    // An author the page says owns and operates the site is its operator, not a person.
    const operated = collectNameCandidates({
      domainLabel: 'culversofhollisridge',
      title: "Culver's of Hollis Ridge",
      ogSiteName: '',
      applicationName: '',
      visibleText: "Culver's of Hollis Ridge\nProudly owned and operated by Tamarack Hill Hospitality, a local franchisee.\n© 2025 Tamarack Hill Hospitality",
      footerText: '© 2025 Tamarack Hill Hospitality',
      jsonLd: empty,
      microdata: empty,
    });
    expect(chooseLegalName(operated, 'culversofhollisridge', ["Culver's of Hollis Ridge"], [], [], ['Tamarack Hill Hospitality'])?.name).toBe(
      'Tamarack Hill Hospitality',
    );
  });
});

describe('legal statements', () => {
  it('reads holders after a month, before the sign and on the line above "All rights reserved"', () => {
    expect(copyrightHolders('© Copyright July, 2013 New York University')).toEqual(['New York University']);
    expect(copyrightHolders('Woods Insurance Service © 1926 - 2012. All Rights Reserved.')).toEqual(['Woods Insurance Service']);
    expect(copyrightHolders('Privacy Policy\nSimons Foundation\nAll Rights Reserved © 2020')).toEqual(['Simons Foundation']);
  });

  it('marks which notices state the legal entity', () => {
    expect(copyrightStatements('© 2024 Acme Media Ltd')).toEqual([{ holder: 'Acme Media Ltd', opensLine: true }]);
    expect(copyrightStatements('Site design © Jane Roe 2008')[0]?.opensLine).toBe(false);
    expect(copyrightStatements('Acme © 2024')).toEqual([{ holder: 'Acme', opensLine: false }]);
  });

  it('cleans logo alt texts to a name', () => {
    expect(logoAltName('Coventry Building Society logo')).toBe('Coventry Building Society');
    expect(logoAltName('Zynk Design - Interior Architects & Designers')).toBe('Zynk Design');
    expect(isBareHost('bookstore.sgi-usa.org')).toBe(true);
    expect(isBareHost('ToledoCars.com')).toBe(false);
  });
});

describe('title segments in other languages', () => {
  it.each([
    ['Startseite - Bäckerei Schröder', ['Bäckerei Schröder']],
    ['Inicio | Panadería López', ['Panadería López']],
    ['Willkommen bei Müller Holzbau', ['Müller Holzbau']],
    ['Bienvenue chez Boulangerie Martin', ['Boulangerie Martin']],
    ['Strona główna - Piekarnia Nowak', ['Piekarnia Nowak']],
    ['サンプル株式会社｜トップページ', ['サンプル株式会社']],
    ['【公式】サンプル株式会社', ['サンプル株式会社']],
    ['会社概要｜サンプル', ['サンプル']],
  ])('%s -> %j', (title, segments) => {
    expect(titleSegments(title)).toEqual(segments);
  });
});

describe('ownership statements and registration lines', () => {
  it.each([
    [
      'Terms of Use.\nWikipedia® is a registered trademark of the Wikimedia Foundation, Inc., a non-profit organization.',
      'Wikimedia Foundation, Inc.',
      'Wikipedia',
    ],
    ['About us\nGreen Plumbers ® is a trademark of Green Invest Limited (Australia)', 'Green Invest Limited', 'Green Plumbers'],
    ['Ours. ACME and ROADRUNNER are trademarks and the property of Acme Widgets Company. Acme is a lender.', 'Acme Widgets Company', 'ACME and ROADRUNNER'],
    ['VisionProject is developed and owned by Visionera AB, a software company in Stockholm.', 'Visionera AB', 'VisionProject'],
    ['This website is owned and operated by Smith and Jones Media. Contact', 'Smith and Jones Media', 'This website'],
    ['Acme Tours, a wholly owned subsidiary of Globe Travel Group plc', 'Globe Travel Group plc', 'Acme Tours'],
    ['Beispiel ist eine Marke der Muster Holding GmbH.', 'Muster Holding GmbH', 'Beispiel'],
    ['Acme est une marque de Groupe Exemple SA.', 'Groupe Exemple SA', 'Acme'],
    ['Acme es una marca registrada de Grupo Ejemplo S.L.', 'Grupo Ejemplo S.L.', 'Acme'],
    ['Acme è un marchio di Esempio S.p.A.', 'Esempio S.p.A.', 'Acme'],
    ['Acme is een merk van Voorbeeld B.V.', 'Voorbeeld B.V.', 'Acme'],
    // A programme or project of an organisation, in the languages of the EU as in English.
    [
      'La Escuela de Escalada Vertical es un proyecto de la Asociación Deportiva Cumbres de Liébana.',
      'Asociación Deportiva Cumbres de Liébana',
      'La Escuela de Escalada Vertical',
    ],
    ['Il Museo del Merletto è un progetto della Fondazione Trine Antiche ETS.', 'Fondazione Trine Antiche ETS', 'Il Museo del Merletto'],
    ['Das Lesecafé ist ein Projekt der Nordstadt Bürgerhilfe gGmbH.', 'Nordstadt Bürgerhilfe gGmbH', 'Das Lesecafé'],
    [
      'Il sito www.museo-esempio.it è di titolarità della Fondazione Esempio ETS, ente del Terzo Settore.',
      'Fondazione Esempio ETS',
      'Il sito www.museo-esempio.it',
    ],
    // The owner's article goes, as after every ownership phrase ("la société", "the").
    ['La Ludothèque La Marelle est gérée par Les Amis de la Marelle ASBL.', 'Amis de la Marelle ASBL', 'La Ludothèque La Marelle'],
    // The legal name first, the name it trades under after it.
    ['© 2024 Joseph Smith Automotive Inc. dba Joe’s Garage', 'Joseph Smith Automotive Inc.', 'Joe’s Garage'],
    ['Kestrel Holdings LLC, doing business as Kestrel Print. All rights reserved.', 'Kestrel Holdings LLC', 'Kestrel Print'],
    ['Acme Services Ltd t/a Acme Plumbing | Registered in England', 'Acme Services Ltd', 'Acme Plumbing'],
    ['Tri-County Plastics is a registered d/b/a of Reinholt Molding Corp.', 'Reinholt Molding Corp.', 'Tri-County Plastics'],
    ['Online orders are fulfilled and invoiced by Barlow Agri Supply, Inc. Orders placed before 2pm ship today.', 'Barlow Agri Supply, Inc.', 'this website'],
    // The controller named before the phrase, and an ownership clause after the name.
    [
      'Swiftlane (S.L. Distribution Services Limited) is the data controller for the information you submit.',
      'S.L. Distribution Services Limited',
      'this website',
    ],
    ['Tamarack Millwork, operated by 2418763 Ontario Inc. · HST # 78452 1190 RT0001', '2418763 Ontario Inc.', 'Tamarack Millwork'],
    ['Harbour Lights is a registered trading name of Quayside Leisure Ltd.', 'Quayside Leisure Ltd.', 'Harbour Lights'],
    ['Brightwater Leisure Limited trading as The Swan Inn, High St', 'Brightwater Leisure Limited', 'The Swan Inn'],
    // A publication named by its kind, with up to three words before the kind.
    [
      'The Millbrook Sentinel is an independent newspaper published by Sentinel Valley Press, Inc. Letters to the editor',
      'Sentinel Valley Press, Inc.',
      'The Millbrook Sentinel',
    ],
    ['Market Murmur is a weekly newsletter published by Corvid & Finch Research LLC.', 'Corvid & Finch Research LLC', 'Market Murmur'],
  ])('reads who owns what: %s', (text, owner, owns) => {
    expect(ownershipStatements(text)).toEqual([{ owner, owns }]);
  });

  it('reads a sentence that opens with "Owned and operated by" as about the site itself', () => {
    expect(ownershipStatements('© 2024 Seaside Hotel. Owned and operated by Acme Hospitality Group LLC.')).toEqual([
      { owner: 'Acme Hospitality Group LLC', owns: 'this website' },
    ]);
    expect(ownershipStatements('Seaside Hotel | Operated by Acme Hospitality Group LLC')).toEqual([
      { owner: 'Acme Hospitality Group LLC', owns: 'this website' },
    ]);
    expect(ownershipStatements('Tidewell Coffee · Site owned and operated by Maplecrest Beverages Inc. · Privacy')).toEqual([
      { owner: 'Maplecrest Beverages Inc.', owns: 'this website' },
    ]);
    // a byline, and a sentence with its own subject, are not about the site
    expect(ownershipStatements('Published by Jane Doe on 3 March 2024.')).toEqual([]);
    expect(ownershipStatements('The ferry operated by Island Lines Ltd leaves at noon.')).toEqual([]);
    // a story's subject published by another company is no statement about a publication
    expect(ownershipStatements('The report is a study published by Brenner Capital LLC last week.')).toEqual([]);
    // a venue's block, an article's fact box, names its own operator: not the site's
    expect(
      ownershipStatements('Larkspur Ridge Distillery\nLachlan, Tasmania · Tours by appointment only\nOperated by Larkspur Ridge Distillery Pty Ltd.'),
    ).toEqual([]);
  });

  it('reads no owner from credits, lower-case owners or respective owners', () => {
    expect(ownershipStatements('This site is developed by PixelWorks Studio')).toEqual([]);
    expect(ownershipStatements('a property that is owned by the mortgage lender after a default')).toEqual([]);
    expect(ownershipStatements('Other names may be trademarks of their respective owners.')).toEqual([]);
    // "trading as" after a word that is no legal name, or before a lower-case phrase, names nobody.
    expect(ownershipStatements('Our shop, trading as a family business since 1950')).toEqual([]);
    expect(ownershipStatements('Acme Ltd, trading as usual over the holidays')).toEqual([]);
  });

  it('finds the name a registration line registers, and only one written right before it', () => {
    expect(registeredNames('© 2014 Prepress Express Ltd. Registered in England and Wales (company no. 04516345)')).toEqual(['Prepress Express Ltd.']);
    expect(registeredNames('Godiva Mortgages Limited is registered in England and Wales')).toEqual(['Godiva Mortgages Limited']);
    expect(registeredNames('Acme Widgets Ltd makes widgets for builders. Registered office: 1 High St')).toEqual([]);
    expect(registeredNames('Slievecarn Brewing Company Limited. Registered in Ireland, CRO No. 612874')).toEqual(['Slievecarn Brewing Company Limited']);
  });

  it("finds the name a company register's or tax office's number follows", () => {
    expect(registeredNames('Verdejante Comércio de Plantas e Jardinagem Ltda. – CNPJ 34.812.907/0001-52 – Rua Harmonia, 418')).toEqual([
      'Verdejante Comércio de Plantas e Jardinagem Ltda.',
    ]);
    expect(registeredNames('Gamskogel Hotelbetriebs GmbH & Co KG, FN 412233 k, Landesgericht Innsbruck')).toEqual(['Gamskogel Hotelbetriebs GmbH & Co KG']);
    expect(registeredNames('Gumleaf Software Pty Ltd (ABN 63 154 872 019)')).toEqual(['Gumleaf Software Pty Ltd']);
    // A company-details line: the name opens it, its fields separated, the registration at its end.
    expect(registeredNames('Nuvola Gelati S.r.l.s. – Via Santo Stefano 14/b, 40125 Bologna – P.IVA 03987650123')).toEqual(['Nuvola Gelati S.r.l.s.']);
    expect(registeredNames('Acme Widgets Ltd makes widgets for builders. Registered office: 1 High St')).toEqual([]);
    // The register's line right under the name; a tax id of Latin America; "registered in" in Portuguese.
    expect(registeredNames('Muebles Cerro Alto, S.A. de C.V.\nRFC MCA980312K47\nAv. Ruiz Cortines 2150')).toEqual(['Muebles Cerro Alto, S.A. de C.V.']);
    expect(registeredNames('a Vitalle Fisioterapia e Pilates Ltda., inscrita no CNPJ sob o nº 12.345.678/0001-90')).toEqual([
      'Vitalle Fisioterapia e Pilates Ltda.',
    ]);
    expect(registeredNames('Haarmonie Wien e.U. · Inhaberin: Sabine Gruber · FN 512834 v')).toEqual(['Haarmonie Wien e.U.']);
    expect(registeredNames('ÇINAR SERAMİK TASARIM SANAYİ VE TİCARET LTD. ŞTİ.\nMERSİS No: 0217045681300015')).toEqual([
      'ÇINAR SERAMİK TASARIM SANAYİ VE TİCARET LTD. ŞTİ.',
    ]);
    expect(findLegalNamesInText('ÇINAR SERAMİK TASARIM SANAYİ VE TİCARET LTD. ŞTİ.\nKalabak Mah.')).toEqual([
      'ÇINAR SERAMİK TASARIM SANAYİ VE TİCARET LTD. ŞTİ.',
    ]);
    // "ein" before a number is German prose, not the US EIN.
    expect(registeredNames('Die Muster GmbH, ein 1998 gegründetes Familienunternehmen')).toEqual([]);
    // The registered office in other languages names the entity before it.
    expect(registeredNames('Vallombrosa Alimentari S.r.l. – Sede legale: Via Aretina 214, 50065 Pontassieve (FI)')).toEqual(['Vallombrosa Alimentari S.r.l.']);
    expect(registeredNames('Dunai Pörkölő Kft. · Székhely: 1137 Budapest')).toEqual(['Dunai Pörkölő Kft.']);
    expect(registeredNames('Exemple Conseil SAS, siège social : 4 rue de la Paix, Paris')).toEqual(['Exemple Conseil SAS']);
    // A footer's separators between the name and its number; Spanish and Italian joiners inside the name.
    expect(registeredNames('Ljungbergs Kafferosteri AB · Org.nr 556812-3456 · Åsgatan 41')).toEqual(['Ljungbergs Kafferosteri AB']);
    expect(registeredNames('© 2025 Aceites Olivares del Sur, S.L. · CIF B-23456789')).toEqual(['Aceites Olivares del Sur, S.L.']);
    expect(registeredNames('Società Agricola Poggio della Quercia S.r.l. | P.IVA 01456780523')).toEqual(['Società Agricola Poggio della Quercia S.r.l.']);
    // Only before its number: a word that happens to spell one is no registration.
    expect(registeredNames('Fire Protection Ltd, Nip it in the bud')).toEqual([]);
  });

  it('reads the kind said between a name and its registration, and GST and EIN numbers', () => {
    expect(registeredNames('These services are provided by Tallow Ledger Systems Ltd, a company registered in Scotland (SC612345).')).toEqual([
      'Tallow Ledger Systems Ltd',
    ]);
    expect(registeredNames('Greyford Community Food Co-operative Limited is a registered society under the 2014 Act, no. 31245R.')).toEqual([
      'Greyford Community Food Co-operative Limited',
    ]);
    expect(registeredNames('Hollin Arts Trust Ltd is a registered charity (no. 1098765).')).toEqual(['Hollin Arts Trust Ltd']);
    expect(registeredNames('© 2025 Kea Pantry. Kea Pantry · Tamsin Provisions Limited · GST No. 118-402-367 · NZBN 9429048712301')).toEqual([
      'Tamsin Provisions Limited',
    ]);
    expect(registeredNames('Marlow Rescue Fund, Inc. · EIN 83-4172290')).toEqual(['Marlow Rescue Fund, Inc.']);
    expect(registeredNames('Stadswiel Mobiliteit B.V., registered with the Chamber of Commerce')).toEqual(['Stadswiel Mobiliteit B.V.']);
    // The kind must follow the name: a sentence that only mentions a registered company names none.
    expect(registeredNames('Acme Widgets Ltd makes widgets. We work with a company registered in Wales.')).toEqual([]);
    expect(registeredNames('Prices include GST. Call 09 555 1234')).toEqual([]);
  });

  it('reads a capitalised qualifier in brackets as part of the name, and "company number" as no form', () => {
    expect(findLegalNamesInText('a trading style of C.L. Joinery (Midlands) Limited, registered in England and Wales, company number 07123456')).toEqual([
      'C.L. Joinery (Midlands) Limited',
    ]);
    expect(findLegalNamesInText('Acme (UK) Ltd and Bolt (Europe) B.V.')).toEqual(['Acme (UK) Ltd', 'Bolt (Europe) B.V.']);
    expect(findLegalNamesInText('Registered in England and Wales, Company No. 0123')).toEqual([]);
  });

  it("reads a weak form as the name's own word when a strong form follows it", () => {
    expect(findLegalNamesInText('© Acme Company, Inc. All rights reserved')).toEqual(['Acme Company, Inc.']);
    expect(findLegalNamesInText('Ford Motor Company Ltd is here')).toEqual(['Ford Motor Company Ltd']);
    expect(findLegalNamesInText('Smith Company and friends')).toEqual(['Smith Company']);
  });

  it("names a privacy policy's data controller, with a strong legal form only", () => {
    expect(ownershipStatements('Titolare del trattamento è Officine Meccaniche Baldessari S.p.A., con sede legale in Schio')).toEqual([
      { owner: 'Officine Meccaniche Baldessari S.p.A.', owns: 'this website' },
    ]);
    expect(ownershipStatements('Le responsable du traitement des données collectées sur ce site est Laboratoires Garonne SAS. Les données')).toEqual([
      { owner: 'Laboratoires Garonne SAS', owns: 'this website' },
    ]);
    expect(ownershipStatements('Verantwortlicher im Sinne der DSGVO ist die Muster GmbH, Hauptstr. 1')).toEqual([
      { owner: 'Muster GmbH', owns: 'this website' },
    ]);
    expect(ownershipStatements('The data controller is Acme Widgets Ltd, 1 Main Street')).toEqual([{ owner: 'Acme Widgets Ltd', owns: 'this website' }]);
    expect(ownershipStatements('The controller is the operator of this website.')).toEqual([]);
  });

  it('reads "a brand of the company X" and "the Services are operated by X"', () => {
    expect(ownershipStatements('Maison Pelissou est une marque de la société Laboratoires Garonne Cosmétique SAS.')).toEqual([
      { owner: 'Laboratoires Garonne Cosmétique SAS', owns: 'Maison Pelissou' },
    ]);
    const choice = chooseLegalName(
      facts(
        'Terms of Use\nThe Services are operated by 2291847 Ontario Inc., carrying on business as Maple & Ember.\n© 2025 Maple & Ember',
        'mapleandember',
        'Terms of Use | Maple & Ember',
      ),
      'mapleandember',
      ['Maple & Ember'],
    );
    expect(choice?.name).toBe('2291847 Ontario Inc.');
  });

  it('reads "is operated by" in other languages, with the operator on the next line after a colon', () => {
    expect(ownershipStatements('Sklep internetowy Zielony Koszyk prowadzony jest przez:\nAGRO-DOM DYSTRYBUCJA sp. z o.o.\nul. Głogowska 218')).toEqual([
      { owner: 'AGRO-DOM DYSTRYBUCJA sp. z o.o.', owns: 'Sklep internetowy Zielony Koszyk' },
    ]);
    expect(ownershipStatements('Der Onlineshop Bergkäse wird betrieben von der Alpenmilch Handels GmbH.')).toEqual([
      { owner: 'Alpenmilch Handels GmbH', owns: 'Der Onlineshop Bergkäse' },
    ]);
    expect(ownershipStatements('Le site Chez Lulu est édité par Lulu Gourmandises SARL.')).toEqual([
      { owner: 'Lulu Gourmandises SARL', owns: 'Le site Chez Lulu' },
    ]);
    // A colon that ends a line with nothing under it names nobody.
    expect(ownershipStatements('Der Shop wird betrieben von:\n')).toEqual([]);
    // The provider or seller a contract text names: "Anbieterin und Vertragspartnerin ist die …", a French
    // CGV's "entre, d'une part, la société …", "le vendeur est …", "The seller is …"; the controller after "ist die".
    const owners = (t: string) => ownershipStatements(t).map((o) => o.owner);
    expect(owners('Anbieterin und Vertragspartnerin ist die Fadenhaus Zentralschweiz AG, Hertensteinstrasse 27, 6004 Luzern.')).toEqual([
      'Fadenhaus Zentralschweiz AG',
    ]);
    expect(
      owners("Les présentes CGV régissent les ventes conclues entre, d'une part, la société Brûlerie du Quai SAS, société par actions simplifiée"),
    ).toEqual(['Brûlerie du Quai SAS']);
    expect(owners('Le vendeur est la société Atelier Nord SARL, 4 rue des Halles.')).toEqual(['Atelier Nord SARL']);
    expect(owners('The seller is Kettle & Crumb Ltd, registered in England.')).toEqual(['Kettle & Crumb Ltd']);
    expect(owners('Verantwortlicher im Sinne der DSGVO ist die\nGrünfracht Berlin GmbH\nReichenberger Straße 88')).toEqual(['Grünfracht Berlin GmbH']);
    // only a name with a strong legal form: a brand named as the seller names nobody here
    expect(owners('The seller is Kettle & Crumb, a family bakery.')).toEqual([]);
    // "the working name of", and a trust board that spells out what it is for (seven words and more)
    expect(owners('Moorside Young Carers is the working name of Moorside Carers Trust Ltd, a company limited by guarantee.')).toEqual([
      'Moorside Carers Trust Ltd',
    ]);
    expect(owners('Waitohi Museum & Art Gallery is operated by the Waitohi Museum and Art Gallery Trust Board, a registered charity.')).toEqual([
      'Waitohi Museum and Art Gallery Trust Board',
    ]);
    // A publication's publisher: "is een uitgave van", "est une publication de", "es una publicación de".
    expect(ownershipStatements('De Polderpost is een uitgave van Polder Media B.V., Postbus 4410, 3006 AK Rotterdam.')).toEqual([
      { owner: 'Polder Media B.V.', owns: 'De Polderpost' },
    ]);
    expect(ownershipStatements("L'Écho du Val est une publication de la société Presse du Val SAS.")[0]?.owner).toBe('Presse du Val SAS');
    expect(ownershipStatements('El Faro del Sur es una publicación de Ediciones Australes S.L.')[0]?.owner).toBe('Ediciones Australes S.L.');
  });

  it('reads "the trading name of" as "a trading name of", and a V.O.F. as a partnership\'s form', () => {
    expect(ownershipStatements('Liffey Smile Dental is the trading name of Brightwater Dental Care Limited, a private company')).toEqual([
      { owner: 'Brightwater Dental Care Limited', owns: 'Liffey Smile Dental' },
    ]);
    expect(ownershipStatements('Bloemerie Spaarne is een handelsnaam van Van der Meer & Bakker V.O.F. · KvK 71234569')).toEqual([
      { owner: 'Van der Meer & Bakker V.O.F.', owns: 'Bloemerie Spaarne' },
    ]);
  });

  it('reads a trading name stated in Dutch, German, French, Spanish and Italian', () => {
    expect(ownershipStatements('Fietsmakerij De Spaak is een handelsnaam van Van Rijn Mobiliteit B.V. · KvK 81234567')).toEqual([
      { owner: 'Van Rijn Mobiliteit B.V.', owns: 'Fietsmakerij De Spaak' },
    ]);
    expect(ownershipStatements('Brennerei Alt ist ein Handelsname der Alt & Söhne GmbH.')).toEqual([{ owner: 'Alt & Söhne GmbH', owns: 'Brennerei Alt' }]);
    expect(ownershipStatements('Le Petit Four est un nom commercial de Boulangeries Réunies SAS.')).toEqual([
      { owner: 'Boulangeries Réunies SAS', owns: 'Le Petit Four' },
    ]);
    expect(ownershipStatements('Casa Lumbre es un nombre comercial de Hostelería Lumbre, S.L.')).toEqual([
      { owner: 'Hostelería Lumbre, S.L.', owns: 'Casa Lumbre' },
    ]);
    expect(ownershipStatements('Trattoria Nina è un nome commerciale di Nina Ristorazione S.r.l.')).toEqual([
      { owner: 'Nina Ristorazione S.r.l.', owns: 'Trattoria Nina' },
    ]);
  });

  const facts = (visibleText: string, domainLabel: string, title: string) =>
    collectNameCandidates({ domainLabel, title, ogSiteName: '', applicationName: '', visibleText, footerText: '', jsonLd: empty, microdata: empty });

  it('names the entity a statement says owns the site or its brand', () => {
    const text = 'Encyclopedia\nText is available.\nWikipedia® is a registered trademark of the Wikimedia Foundation, Inc., a non-profit organization.';
    const choice = chooseLegalName(facts(text, 'wikipedia', 'New Zealand - Wikipedia'), 'wikipedia', ['Wikipedia']);
    expect(choice?.name).toBe('Wikimedia Foundation, Inc.');
    expect(choice?.brandName).toBe('Wikipedia');
  });

  it('names the legal entity a site trades under another name as (dba, trading as)', () => {
    const text = 'Welcome to Joe’s Garage\nBrakes, tyres and servicing.\n© 2024 Joseph Smith Automotive Inc. dba Joe’s Garage';
    const choice = chooseLegalName(facts(text, 'joesgarage', 'Joe’s Garage | Home'), 'joesgarage', ['Joe’s Garage']);
    expect(choice?.name).toBe('Joseph Smith Automotive Inc.');
    expect(choice?.brandName).toBe('Joe’s Garage');
  });

  it('reads "a d/b/a of", "operating as" in brackets, "a program of" and a statement about the organisation by its kind', () => {
    const name = (text: string, domain: string, title: string) => chooseLegalName(facts(text, domain, title), domain, [title])?.name;
    expect(name('Bayside Barkery\nTreats and toys.\nBayside Barkery is a d/b/a of Pelham Pet Supply Inc · Returns', 'baysidebarkery', 'Bayside Barkery')).toBe(
      'Pelham Pet Supply Inc',
    );
    expect(
      name(
        'Harbourview Print & Sign\nHarbourview Graphics Limited (operating as Harbourview Print & Sign) respects your privacy.',
        'harbourviewprint',
        'Harbourview Print & Sign',
      ),
    ).toBe('Harbourview Graphics Limited');
    expect(
      name(
        'Larchmont Food Pantry\nThe Larchmont Food Pantry is a program of The Larchmont Avenue Foundation, a 501(c)(3) organization.',
        'larchmontpantry',
        'Larchmont Food Pantry',
      ),
    ).toBe('Larchmont Avenue Foundation');
    expect(
      name(
        'Wagtail Rescue\nWagtail Rescue is the adoption program of Ashdown Animal Welfare Foundation, Inc., a 501(c)(3) nonprofit organization.',
        'wagtailrescue',
        'Wagtail Rescue',
      ),
    ).toBe('Ashdown Animal Welfare Foundation, Inc.');
  });

  it('reads an operating name, a service provided through an organisation, a location owned by one and terms that define "we"', () => {
    const name = (text: string, domain: string, title: string) => chooseLegalName(facts(text, domain, title), domain, [title])?.name;
    expect(
      name(
        'Birch & Fern Gardens\nToday Birch & Fern is the operating name of Hollis Grounds Management, Inc., an Ohio S corporation.',
        'birchandfern',
        'Birch & Fern Gardens',
      ),
    ).toBe('Hollis Grounds Management, Inc.');
    expect(
      name(
        'CalmPath Therapies\nCalmPath Therapies is provided by Westmoor Partnership NHS Foundation Trust. Commissioned by NHS Westmoor ICB.',
        'calmpath',
        'CalmPath Therapies',
      ),
    ).toBe('Westmoor Partnership NHS Foundation Trust');
    expect(
      name(
        "AssayLab\nAssayLab's services are delivered through Northmoor Research Enterprises Limited, the University's commercial company.",
        'assaylab',
        'AssayLab',
      ),
    ).toBe('Northmoor Research Enterprises Limited');
    // A provider of something else is no operator.
    expect(name('AssayLab\nPayments are provided by Stripe, Inc.', 'assaylab', 'AssayLab') ?? '').not.toMatch(/Stripe/);
    expect(
      name(
        'Tidy Crew Vernon\nEach Tidy Crew location is independently owned and operated. This location is owned by Kalamalka Shine Ltd. and operates under licence from Tidy Crew Franchising Inc.',
        'tidycrewvernon',
        'Tidy Crew Vernon',
      ),
    ).toBe('Kalamalka Shine Ltd.');
    expect(
      name(
        'Terms of Use\n1. Who we are\nIn these terms, “we”, “us” and “our” means Stadswiel Mobiliteit B.V., registered with the Chamber of Commerce (KvK) under number 71234567.',
        'fietsverhuur',
        'Terms of Use',
      ),
    ).toBe('Stadswiel Mobiliteit B.V.');
    expect(
      name(
        'Clonmore Mill Museum\nThe museum is owned and managed by the Clonmore Heritage Trust, a company limited by guarantee.',
        'clonmoremill',
        'Clonmore Mill Museum',
      ),
    ).toBe('Clonmore Heritage Trust');
    // A person who owns the salon is no legal entity.
    expect(name('Sheelin Hair Studio\nThe salon is owned by Aoife Brennan.', 'sheelinhair', 'Sheelin Hair Studio')).toBe('Sheelin Hair Studio');
    // Not every subject by its kind: a building's owner is a landlord.
    expect(name('Clonmore Mill Museum\nThe building is owned by Carlow Estates Ltd.', 'clonmoremill', 'Clonmore Mill Museum')).toBe('Clonmore Mill Museum');
  });

  it("reads a parent group's caption, with a strong legal form or a group's word only", () => {
    const owners = (text: string) => ownershipStatements(text).map((o) => o.owner);
    expect(owners('Gift Vouchers\nA Greystone Hospitality Group Ltd venue\n© The Copper Kettle 2025')).toEqual(['Greystone Hospitality Group Ltd']);
    expect(owners('© 2025 Acme Homes · A Berkshire Hathaway Holdings Company')).toEqual(['Berkshire Hathaway Holdings']);
    expect(owners('Acme Plumbing\nA Locally Owned Business\nA Trusted Name company.')).toEqual([]);
  });

  it("reads a form's privacy note that names who collects the information, not a payment processor", () => {
    const owners = (text: string) => ownershipStatements(text).map((o) => o.owner);
    expect(owners('Information you submit is collected and handled by Bluewater Pool Services, LLC in accordance with our Privacy Policy.')).toEqual([
      'Bluewater Pool Services, LLC',
    ]);
    expect(owners('Personal data provided through this form is held by Marlow Tate Ltd.')).toEqual(['Marlow Tate Ltd.']);
    expect(owners('Your card details are processed by Stripe, Inc. and never stored by us.')).toEqual([]);
    expect(owners('Data is processed by Google LLC for analytics.')).toEqual([]);
  });

  it("names a franchise's operator, not the franchisor its brand's trademark notices name", () => {
    const hotel =
      'Holiday Inn Express Leeds\nThis hotel is independently owned and operated by Pennine Hotels Limited under a licence agreement with an IHG® hotel brand franchisor.\nHoliday Inn Express® is a registered trademark of Six Continents Hotels, Inc.';
    expect(ownershipStatements(hotel).map((o) => o.owner)).toEqual(['Pennine Hotels Limited']);
    expect(chooseLegalName(facts(hotel, 'hiexleedskirkstall', 'Holiday Inn Express Leeds'), 'hiexleedskirkstall', ['Holiday Inn Express Leeds'])?.name).toBe(
      'Pennine Hotels Limited',
    );
    // Without a franchise's disclaimer the brand's owner is the site's (Wikipedia's case above).
    expect(ownershipStatements('Acme® is a registered trademark of Acme Holdings, Inc.').map((o) => o.owner)).toEqual(['Acme Holdings, Inc.']);
    expect(
      ownershipStatements("Culver's of Hollis Ridge. Proudly owned and operated by Tamarack Hill Hospitality, a local franchisee").map((o) => o.owner),
    ).toEqual(['Tamarack Hill Hospitality']);
  });

  it('reads a "design and development" label as a credit', () => {
    expect([...creditedNames('© 2025 Bodegas Almenara · Diseño y desarrollo: Estudio Pámpano S.L.')]).toEqual(['estudiopampano']);
    expect([...creditedNames('Design & development by Northfold Studio')]).toEqual(['northfoldstudio']);
    // a shop software's default footer, in its languages; a company whose name holds "Software" is none
    expect([...creditedNames('© 2026 - Logiciel e-commerce par PrestaShop™')]).toEqual(['prestashop']);
    expect([...creditedNames('© 2026 - Ecommerce software by PrestaShop™')]).toEqual(['prestashop']);
    expect([...creditedNames('© 2026 Acme Software de México S.A. de C.V.')]).toEqual([]);
    expect(copyrightHolders('© 2026 - Logiciel e-commerce par PrestaShop™')).toEqual([]);
    expect(copyrightHolders('© 2026 Acme Software de México S.A. de C.V.')).toEqual(['Acme Software de México S.A. de C.V.']);
    // A footer's "· Website:" field; not a contact block's "Website: www.…".
    expect([...creditedNames('© 2024 Käserei Beispiel · Website: Webagentur Muster GmbH')]).toEqual(['webagenturmuster']);
    expect([...creditedNames('Phone: 031 809 12 34\nWebsite: www.kaeserei-beispiel.ch')]).toEqual([]);
  });

  it('reads the Austrian "Medieninhaber", the Spanish "Titular", a Polish controller and a Belgian enterprise number', () => {
    expect(profileNames('Medieninhaber und Betreiber\nHuber & Steiner Sport OG\nDorfstraße 27')).toEqual(['Huber & Steiner Sport OG']);
    expect(profileNames('Titular:\nOdontología Integral Norte, S.L.P.\nNIF: B87654321')).toEqual(['Odontología Integral Norte, S.L.P.']);
    // an association or foundation, opened by its kind, has no legal form after its name; a person has neither
    expect(profileNames('Medieninhaber und Herausgeber\nVerein zur Förderung der Bergwaldpflege Tirol\nKurz: Bergwaldhilfe')).toEqual([
      'Verein zur Förderung der Bergwaldpflege Tirol',
    ]);
    expect(profileNames('Titular: Fundación Mar Abierto\nNIF: G12345678')).toEqual(['Fundación Mar Abierto']);
    expect(profileNames('Medieninhaber\nMaria Huber\nDorfstraße 27')).toEqual([]);
    expect(ownershipStatements('Administratorem Twoich danych osobowych jest Edukacja Plus s.c. Anna Nowak, Piotr Kowalski z siedzibą w Poznaniu')).toEqual([
      { owner: 'Edukacja Plus s.c.', owns: 'this website' },
    ]);
    expect(registeredNames("Les Amis de la Marelle ASBL · Rue de Dave 42, 5100 Jambes · N° d'entreprise 0456.789.123")).toEqual([
      'Les Amis de la Marelle ASBL',
    ]);
  });

  it('reads "designed, marketed and sold by", "offered by" for the site\'s services and a merchant of record', () => {
    expect(ownershipStatements('Trailhead is designed, marketed and sold by Osprey Outdoor Group, Inc. (NYSE: OOG), Portland')).toEqual([
      { owner: 'Osprey Outdoor Group, Inc.', owns: 'Trailhead' },
    ]);
    expect(ownershipStatements('Services on this site are offered by BP Learning Services, LLC, a Colorado limited liability company')).toEqual([
      { owner: 'BP Learning Services, LLC', owns: 'Services on this site' },
    ]);
    expect(ownershipStatements('Payments are collected by Ferncrest Labs, Inc. as merchant of record, and the charge will appear')).toEqual([
      { owner: 'Ferncrest Labs, Inc.', owns: 'this website' },
    ]);
    // "Sold by" alone is a retailer's: no ownership.
    expect(ownershipStatements('Our boots are sold by Outdoor Retail Holdings, Inc. and other stores.')).toEqual([]);
  });

  it('reads names their form opens in Thai, Vietnamese, Indonesian, Ukrainian, Japanese and Korean', () => {
    expect(ownershipStatements('บ้านสวนตัวอย่าง\nดำเนินการโดย บริษัท ตัวอย่าง ไทย จำกัด (Example Thai Co., Ltd.)')).toEqual([
      { owner: 'บริษัท ตัวอย่าง ไทย จำกัด', owns: 'this website' },
    ]);
    expect(ownershipStatements('Gạo Ví Dụ là thương hiệu gạo sạch của Công ty TNHH Nông Sản Ví Dụ, ra đời năm 2019')).toEqual([
      { owner: 'Công ty TNHH Nông Sản Ví Dụ', owns: 'Gạo Ví Dụ' },
    ]);
    expect(ownershipStatements('Kain Contoh dikelola oleh PT Contoh Wastra Nusantara\nNIB 9120301234567')).toEqual([
      { owner: 'PT Contoh Wastra Nusantara', owns: 'Kain Contoh' },
    ]);
    expect(profileNames('Продавець: ТОВ «Приклад Кава» (Товариство з обмеженою відповідальністю)')).toEqual(['ТОВ «Приклад Кава»']);
    expect(profileNames('会社名\n株式会社木漏日フーズ（Komorebi Foods Co., Ltd.）\n代表者')).toEqual(['株式会社木漏日フーズ']);
    expect(definedParties('개인정보처리방침\n주식회사 한빛에듀랩(이하 ‘회사’)은 개인정보 보호법에 따라')).toEqual([
      { owner: '주식회사 한빛에듀랩', owns: 'this website' },
    ]);
    // "CV" and "PT" are English words before a name too ("CV Writing", "PT Solutions"): no form there.
    expect(legalFormOf('CV Writing')).toBeNull();
    expect(legalFormOf('PT Solutions')).toBeNull();
    // A title line above a Korean form is no part of the name.
    expect(cjkLegalSpellingIn('개인정보처리방침', '개인정보처리방침\n주식회사 한빛에듀랩')).toBeNull();
  });

  it('reads operators and controllers of Latin America and Central and Eastern Europe, in sentence case too', () => {
    const statement = (text: string) => ownershipStatements(text);
    expect(statement('O controlador dos dados pessoais é a Odontologia Exemplo Ltda., pessoa jurídica')).toEqual([
      { owner: 'Odontologia Exemplo Ltda.', owns: 'this website' },
    ]);
    expect(statement('I. Prevádzkovateľ\nPrevádzkovateľom internetového obchodu www.hojdacka.sk je spoločnosť:\nHravé drevo s.r.o.\nso sídlom Žilina')).toEqual(
      [{ owner: 'Hravé drevo s.r.o.', owns: 'this website' }],
    );
    expect(statement('Site-ul www.frunzaceai.ro este administrat de FRUNZA VERDE COMERȚ S.R.L., cu sediul în Cluj')).toEqual([
      { owner: 'FRUNZA VERDE COMERȚ S.R.L.', owns: 'Site-ul www.frunzaceai.ro' },
    ]);
    expect(statement('Nube Clara es la marca comercial de Soluciones Contables Nube Clara S.A.S., sociedad con NIT')).toEqual([
      { owner: 'Soluciones Contables Nube Clara S.A.S.', owns: 'Nube Clara' },
    ]);
    expect(statement('Blagovno znamko Zeleni Pedal upravlja družba:\nE-mobilnost Bled d.o.o.\nLjubljanska cesta 7')).toEqual([
      { owner: 'E-mobilnost Bled d.o.o.', owns: 'Blagovno znamko Zeleni Pedal' },
    ]);
    expect(registeredNames('Фирмени данни\nСладко Изкуство ЕООД\nЕИК: 205123456')).toEqual(['Сладко Изкуство ЕООД']);
    expect(registeredNames('Κρητικά Ελαιουργεία Παπαδάκη Α.Ε. | ΑΦΜ: 099876543 | ΔΟΥ Χανίων')).toEqual(['Κρητικά Ελαιουργεία Παπαδάκη Α.Ε.']);
    expect(profileNames('Razón social:\nTextiles Andinos del Sur E.I.R.L.\nRUC:\n20601234567')).toEqual(['Textiles Andinos del Sur E.I.R.L.']);
    expect(definedParties('Operadora Hotelera Ejemplo, S.A. de C.V.\n(en lo sucesivo “Casa Ejemplo” o “el Hotel”), con domicilio')).toEqual([
      { owner: 'Operadora Hotelera Ejemplo, S.A. de C.V.', owns: 'Casa Ejemplo' },
    ]);
  });

  it('reads no owner from a list of locations each "owned by" somebody else', () => {
    const text =
      'Brightleaf Lawn Care\nFind a location\nBrightleaf Lawn Care of North Raleigh — owned by Marcus & Tia Greene\nBrightleaf Lawn Care of West Chester — owned by Dan Pruitt\n© 2025 Brightleaf Franchising, LLC. All rights reserved.';
    expect(ownershipStatements(text)).toEqual([]);
    expect(chooseLegalName(facts(text, 'brightleaflawn', 'Brightleaf Lawn Care'), 'brightleaflawn', ['Brightleaf Lawn Care'])?.name).toBe(
      'Brightleaf Franchising, LLC',
    );
    // One owner, stated twice, is the site's.
    expect(
      ownershipStatements('Harbour Inn. Owned and operated by Tidewater Hospitality LLC\nOperated by Tidewater Hospitality LLC').map((o) => o.owner),
    ).toEqual(['Tidewater Hospitality LLC', 'Tidewater Hospitality LLC']);
  });

  it('reads the name a contractor\'s licence number follows, and "Co." after a longer form of the name', () => {
    expect(registeredNames('Licensed & Insured · Summit Ridge Exteriors, L.L.C. · ROC #334512 · Bonded')).toEqual(['Summit Ridge Exteriors, L.L.C.']);
    expect(registeredNames('Acme Plumbing Inc. Lic. No. 1043')).toEqual(['Acme Plumbing Inc.']);
    const text =
      'Ebbing Precision\nThree generations at the spindle\nFounded in 1972 by Walter Ebbing, Ebbing Precision Machine Co. began with two lathes.\n© 2025 Ebbing Precision';
    expect(chooseLegalName(facts(text, 'ebbingprecision', 'Ebbing Precision'), 'ebbingprecision', ['Ebbing Precision'])?.name).toBe(
      'Ebbing Precision Machine Co.',
    );
  });

  it("ignores a statement about somebody else's marks, and a registered sister company", () => {
    const text =
      '© 2024 Acme Widgets\nApp Store is a trademark of Apple Inc., registered in the U.S.\nGodiva Mortgages Limited is registered in England and Wales.\nSuperAcme Widgets Pro is a trademark of Roadrunner Holdings plc.\nNorthern Acme Widgets Limited is registered in Scotland.';
    const choice = chooseLegalName(facts(text, 'acmewidgets', 'Acme Widgets'), 'acmewidgets', ['Acme Widgets']);
    expect(choice?.name).toBe('Acme Widgets');
  });

  it("keeps the organisation's own strong legal entity over a stated owner, and takes a weak form a statement writes", () => {
    const own = chooseLegalName(facts('© 2024 Acme Ltd\nAcme is a trademark of Roadrunner Holdings plc', 'acme', 'Acme'), 'acme', ['Acme']);
    expect(own?.name).toBe('Acme Ltd');
    const weak = facts(
      'First Acme Mortgage\nFIRST ACME MORTGAGE COMPANY is a trademark and the property of First Acme Mortgage Company.',
      'firstacme',
      'First Acme Mortgage',
    );
    expect(chooseLegalName(weak, 'firstacme', [])?.name).toBe('First Acme Mortgage Company');
  });

  it("joins a short name to its best-evidenced longer name: the footer's legal spelling, not the title's place-name variant", () => {
    const text =
      'Upward Construction & Renovation Ltd\nUpward Construction builds homes.\nCopyright © 2014, Upward Construction & Renovations Ltd. - All Rights Reserved.';
    const choice = chooseLegalName(facts(text, 'upwardconstruction', 'Upward Construction & Renovation, North Vancouver'), 'upwardconstruction', []);
    expect(choice?.name).toBe('Upward Construction & Renovations Ltd.');
  });
});

describe('parties a terms or privacy text defines', () => {
  it.each([
    ['These Terms govern the services operated by Acme Holdings, Inc. ("Acme", "we", "us" or "our").', 'Acme Holdings, Inc.', 'this website'],
    ['Roadrunner Labs GmbH (hereinafter “Provider”) offers the service.', 'Roadrunner Labs GmbH', 'this website'],
    ["Acme Widgets Ltd ('Acme Widgets') is committed to your privacy.", 'Acme Widgets Ltd', 'Acme Widgets'],
    ['This Agreement is a contract between you and Acme Media, LLC. Please read it.', 'Acme Media, LLC', 'this website'],
    ['Die Muster Software GmbH (nachfolgend „Anbieter“) betreibt diese Website.', 'Muster Software GmbH', 'this website'],
    ['La société Exemple SAS (ci-après « le Prestataire ») édite ce site.', 'Exemple SAS', 'this website'],
    ['Ejemplo Digital S.L. (en adelante, "el Prestador") es titular del sitio.', 'Ejemplo Digital S.L.', 'this website'],
    ['Esempio Web S.r.l. (di seguito "il Titolare") gestisce il sito.', 'Esempio Web S.r.l.', 'this website'],
    ['Diese AGB gelten für Verträge zwischen Ihnen und der Muster Handel GmbH.', 'Muster Handel GmbH', 'this website'],
  ])('reads the party and what it is defined as: %s', (text, owner, owns) => {
    expect(definedParties(text)).toEqual([{ owner, owns }]);
  });

  it('reads nothing from a parenthesis that is no definition, or a definition without a legal form', () => {
    expect(definedParties('Acme Widgets Ltd (see our "FAQ" page for details) ships worldwide.')).toEqual([]);
    expect(definedParties('Acme Widgets ("we") ships worldwide.')).toEqual([]);
    expect(definedParties('Acme Widgets Ltd, founded in 1990 ("the Company"), ships worldwide.')).toEqual([]);
    expect(definedParties('an agreement between you and us')).toEqual([]);
    // A press release on a news site defines its issuer as "the Company": that is not the site speaking.
    expect(definedParties('Acme Corp. (the "Company") today announced results.')).toEqual([{ owner: 'Acme Corp.', owns: 'Company' }]);
  });

  const facts = (visibleText: string, domainLabel: string, title: string) =>
    collectNameCandidates({ domainLabel, title, ogSiteName: '', applicationName: '', visibleText, footerText: '', jsonLd: empty, microdata: empty });

  it("takes the operator a terms page defines as the site's legal entity, and not a processor it defines", () => {
    const text =
      'Terms of Service\n© 2024 Roadrunner\nThese Terms are an agreement between you and Coyote Labs, Inc. ("Roadrunner", "we", "us").\nWe use Google Analytics, a service of Google LLC ("Google").';
    const choice = chooseLegalName(facts(text, 'roadrunner', 'Terms of Service | Roadrunner'), 'roadrunner', ['Roadrunner']);
    expect(choice?.name).toBe('Coyote Labs, Inc.');
    expect(choice?.brandName).toBe('Roadrunner');
    const processorOnly = 'Privacy\n© 2024 Roadrunner\nWe use Google Analytics, a service of Google LLC ("Google").';
    expect(chooseLegalName(facts(processorOnly, 'roadrunner', 'Privacy | Roadrunner'), 'roadrunner', ['Roadrunner'])?.name).toBe('Roadrunner');
  });
});

describe('company profile tables', () => {
  it.each([
    ['About\nCompany name: Acme Widgets Ltd\nFounded: 1990', ['Acme Widgets Ltd']],
    ['Company Name\nAcme Widgets, Inc.\nAddress', ['Acme Widgets, Inc.']],
    ['Firma: Muster GmbH\nSitz: Berlin', ['Muster GmbH']],
    ['会社概要\n会社名\n株式会社サンプル\n設立\n2001年', ['株式会社サンプル']],
    ['Raison sociale : Exemple SAS', ['Exemple SAS']],
    ['Company name\tAcme Trading Co., Ltd.', ['Acme Trading Co., Ltd.']],
    // A form's field label names nobody, nor does a name without a strong legal form or one further down.
    ['Contact us\nCompany Name:\nEmail:\nMessage', []],
    ['Company name: Acme Widgets', []],
    ['Company Name:\n\n\n\n© 2024 Acme Widgets Ltd', []],
    // An operator's label, and a value in sentence case (the label says it is a name).
    ['Provozovatel: Lipová hospoda s.r.o., IČO 07654321, se sídlem Husova 12', ['Lipová hospoda s.r.o.']],
    ['Betreiber\nAtelier Mérinat architectes Sàrl\nRue du Lac 3', ['Atelier Mérinat architectes Sàrl']],
    ['Website operator: Harbour Lane Media Ltd', ['Harbour Lane Media Ltd']],
    // Still only up to a strong form, within a few words: a sentence after the label names nobody.
    ['Operator: we are a family business run by the third generation since 1950 and proud of it GmbH', []],
    ['Betreiber: siehe unten', []],
    // Slovak, Hungarian and Korean operators' and trade names' labels; a footer's fields strung together.
    ['Prevádzkovateľ: Lúčna s.r.o., so sídlom Hlavná 4, 031 01 Liptovský Mikuláš', ['Lúčna s.r.o.']],
    ['Üzemeltető: Dunai Pörkölő Kft. · Székhely: 1137 Budapest', ['Dunai Pörkölő Kft.']],
    ['상호명: 주식회사 하늘플라워 | 대표: 김민지 | 사업자등록번호: 214-88-41275', ['주식회사 하늘플라워']],
    // The seller's line of a Japanese shop's legal notice, written in English.
    ['Notation based on the Specified Commercial Transactions Act\nSeller\nKumoya Shiko Co., Ltd.\nRepresentative\nHaruto Kumoya', ['Kumoya Shiko Co., Ltd.']],
  ])('%j -> %j', (text, names) => {
    expect(profileNames(text)).toEqual(names);
  });
});

describe('a legal name heading an address', () => {
  it('reads the name on the line above a postal address, and no other line', () => {
    expect(addressedNames('Kontakt\nWiesner Elektrotechnik GmbH\nFreistädter Straße 214\n4040 Linz\nT +43 732 77 14 50')).toEqual([
      'Wiesner Elektrotechnik GmbH',
    ]);
    expect(addressedNames('Acme Widgets, Inc.\n1200 Harbor Blvd, Suite 4\nOxnard, CA 93035')).toEqual(['Acme Widgets, Inc.']);
    // A name in a sentence, a name with no address under it, an address with no legal name above it.
    expect(addressedNames('We work with Acme Widgets, Inc. every day\n1200 Harbor Blvd, Suite 4\nOxnard, CA 93035')).toEqual([]);
    expect(addressedNames('Acme Widgets, Inc.\nMaking widgets since 1990\nCall us today')).toEqual([]);
    expect(addressedNames('Visit us\n1200 Harbor Blvd, Suite 4\nOxnard, CA 93035')).toEqual([]);
  });

  it("counts only where the name shares a word with the domain: a contact page lists others' offices", () => {
    const facts = (text: string, domainLabel: string) => ({
      domainLabel,
      title: '',
      ogSiteName: '',
      applicationName: '',
      visibleText: text,
      footerText: '',
      jsonLd: empty,
      microdata: empty,
    });
    const block = 'Contact\nNorthfield Investment Corporation\n1300 New York Ave NW\nWashington, DC 20577';
    const stated = (domain: string) => collectNameCandidates(facts(block, domain)).filter((c) => c.source === 'imprint');
    expect(stated('northfield')).toMatchObject([{ name: 'Northfield Investment Corporation', legal: true, owns: 'Northfield Investment Corporation' }]);
    expect(stated('ndb')).toEqual([]);
  });
});
