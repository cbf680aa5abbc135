import { describe, expect, it } from 'vitest';
import { collectNameCandidates, creditedNames, type PageNameFacts } from './legal-name.ts';
import { chooseOwnerNames, isJunkName, isShouted, placesOf, siteRegion } from './owner-name.ts';

const empty = { orgs: [], siteNames: [], looseAddresses: [], emails: [] };
const page = (over: Partial<PageNameFacts>): PageNameFacts => ({
  domainLabel: 'acme',
  title: '',
  ogSiteName: '',
  applicationName: '',
  visibleText: '',
  footerText: '',
  jsonLd: empty,
  microdata: empty,
  ...over,
});
const choose = (over: Partial<PageNameFacts>) => {
  const p = page(over);
  return chooseOwnerNames(collectNameCandidates(p), p.domainLabel, [p.ogSiteName, p.title].filter(Boolean), [p.title, p.visibleText]);
};

describe('legal name and brand name of the owner', () => {
  it("does not take the web agency's og:site_name for the brand", () => {
    const c = choose({
      domainLabel: 'coastlinephysio',
      title: 'Contact | Coastline Physio & Pilates',
      ogSiteName: 'Bluegum Web Co',
      visibleText: 'Book with Coastline Physio & Pilates today.\n© 2025 Coastline Physio & Pilates · Website by Bluegum Web Co Pty Ltd',
      footerText: '© 2025 Coastline Physio & Pilates · Website by Bluegum Web Co Pty Ltd',
    });
    expect(c?.name).toBe('Coastline Physio & Pilates');
    expect(c?.brandName).toBe('Coastline Physio & Pilates');
  });

  it('takes the mixed-case spelling of the text over the capitals of a footer styled uppercase', () => {
    const c = choose({
      domainLabel: 'acmewidgets',
      title: 'Acme Widgets | Widgets',
      // The browser's text of a footer styled uppercase; the body writes the name as the company does.
      footerText: '© 2024 ACME WIDGETS, INC. ALL RIGHTS RESERVED.',
      visibleText: 'Acme Widgets, Inc. has made widgets since 1952.\n© 2024 ACME WIDGETS, INC. ALL RIGHTS RESERVED.',
    });
    expect(c?.name).toBe('Acme Widgets, Inc.');
    expect(c?.brandName).toBe('Acme Widgets');
    expect(choose({ domainLabel: 'acmewidgets', footerText: '© 2024 ACME WIDGETS, INC. ALL RIGHTS RESERVED.' })?.name).toBe('ACME WIDGETS, INC.');
    expect([isShouted('ACME WIDGETS, INC.'), isShouted('IBM'), isShouted('BMW AG'), isShouted('Acme Widgets')]).toEqual([true, false, false, false]);
  });

  it('takes the parent company named by the copyright line over the brand', () => {
    const c = choose({
      domainLabel: 'darlinghomes',
      title: 'Darling Homes | New Homes in Texas',
      visibleText: 'Darling Homes builds homes.\nCopyright © 2007 - Taylor Morrison, Inc. All rights reserved.',
    });
    expect(c?.name).toBe('Taylor Morrison, Inc.');
    expect(c?.brandName).toBe('Darling Homes');
  });

  it('writes "<Brand> Company" where the copyright notice states it, not the short brand', () => {
    const c = choose({
      domainLabel: 'firstcal',
      title: 'Home Loans at First Cal',
      visibleText: 'First Cal helps you. First Cal is here.\n© 2014 First California Mortgage Company',
    });
    expect(c?.name).toBe('First California Mortgage Company');
    expect(c?.brandName).toBe('First Cal');
  });

  it('keeps the owner when it states its own legal entity, whatever else holds a copyright', () => {
    const c = choose({ domainLabel: 'acmewidgets', title: 'Acme Widgets', visibleText: '© 2024 Acme Widgets Ltd\n© 2023 Parent Holdings plc' });
    expect(c?.name).toBe('Acme Widgets Ltd');
  });

  it('keeps the publisher in a copyright line and the site name as the brand', () => {
    const c = choose({
      domainLabel: 'theverge',
      title: 'A review - The Verge',
      ogSiteName: 'The Verge',
      footerText: 'Contact\n© 2024 Vox Media, LLC. All Rights Reserved',
    });
    expect(c?.name).toBe('Vox Media, LLC');
    expect(c?.brandName).toBe('The Verge');
  });

  it('does not take a credit inside a sentence or a map-data notice as the legal entity', () => {
    const c = choose({ domainLabel: 'acmedental', title: 'Acme Dental', visibleText: 'Welcome to Acme Dental.\nMap data © 2014 Google\nPhotos © Jane Roe' });
    expect(c?.name).toBe('Acme Dental');
  });

  it('never answers a template placeholder or a platform credited in the footer', () => {
    expect(isJunkName('Company Name', 'acme')).toBe(true);
    expect(isJunkName('Your Company', 'acme')).toBe(true);
    expect(isJunkName('Shopify', 'acme')).toBe(true);
    expect(isJunkName('Shopify', 'shopify')).toBe(false);
    expect(isJunkName('John W. Callinan', 'acme')).toBe(true);
    expect(isJunkName('Dr. Jane Roe', 'acme')).toBe(true);
    expect(isJunkName('Jane Roe, DDS', 'acme')).toBe(true);
    expect(isJunkName('Kaye Barr', 'kayebarr')).toBe(false);
    expect(isJunkName('Dr. Pepper Snapple Group Inc', 'acme')).toBe(false);
    const c = choose({ domainLabel: 'acmetees', title: 'Company Name | Acme Tees', footerText: '© 2024 Shopify' });
    expect(c?.name).toBe('Acme Tees');
    // With a legal form, or the template's "insert … here".
    expect(isJunkName('Business Name LLC', 'acme')).toBe(true);
    expect(isJunkName('Insert Company Name Here', 'acme')).toBe(true);
    expect(isJunkName('Business Name Insurance LLC', 'acme')).toBe(false);
  });

  it('never answers a US town and its state, written where a name would be ("© 2018 Bar Harbor, Maine")', () => {
    for (const place of ['Bar Harbor, Maine', 'Austin, TX', 'Washington, DC', 'Saint Paul, Minnesota']) expect(isJunkName(place, 'harborviewinn')).toBe(true);
    for (const name of ['Acme Widgets, Inc.', 'Katz, Marshall & Banks', 'Maine Coast Realty', 'Texas Roadhouse']) expect(isJunkName(name, 'acme')).toBe(false);
    const c = choose({ domainLabel: 'harborviewinn', title: 'Bar Harbor, Maine | Harbor View Inn', footerText: '© 2018 Bar Harbor, Maine' });
    expect(c?.name).toBe('Harbor View Inn');
  });

  it('never answers a platform, agency or host the page credits with the site, in no list or in a list', () => {
    const credited = (visibleText: string, domainLabel = 'acmecameras') =>
      choose({ domainLabel, title: 'Acme Cameras | Lenses and Tripods', visibleText, footerText: visibleText })?.name;
    expect(credited('Copyright © 2024 osCommerce. Powered by osCommerce')).toBe('Acme Cameras');
    expect(credited('© 2024 Pixel Perfect Designs Ltd. Website by Pixel Perfect Designs Ltd')).toBe('Acme Cameras');
    // The site's own name stays its own; a business writing of its own work is no credit.
    expect(credited('© 2024 Acme Cameras Inc. Powered by Acme Cameras')).toBe('Acme Cameras Inc.');
    expect(credited('Kitchens designed by Smith Kitchens Ltd. © 2024 Smith Kitchens Ltd', 'smithkitchens')).toBe('Smith Kitchens Ltd');
    expect([...creditedNames('Powered by X-Cart shopping cart software. Site by the Pixel Co. Hosted by BlueHost Inc.')]).toEqual([
      'xcart',
      'pixel',
      'bluehost',
    ]);
    expect([...creditedNames('Homes built by Acme Builders. Designed by our team.')]).toEqual([]);
    // The same credits in other languages, for the site or its design only; a name's joiners kept, a loose one dropped.
    expect([...creditedNames('© 2025 Clinique des Tilleuls · Site réalisé par Atelier Grain de Web SARL')]).toEqual(['ateliergraindeweb']);
    expect([...creditedNames('Webdesign: Pixelwerk GmbH · Sito realizzato da Studio Pergola srl')]).toEqual(['pixelwerk', 'studiopergola']);
    expect([...creditedNames('Gestaltung von Räumen und Gärten. Powered by Shopify and friends')]).toEqual(['shopify']);
    // A credited agency is no legal entity of the site, even where a legal notice's block holds its name.
    expect(
      choose({
        domainLabel: 'clinique-des-tilleuls',
        title: 'Clinique Vétérinaire des Tilleuls',
        visibleText: 'Mentions légales\n© 2025 Clinique Vétérinaire des Tilleuls · Site réalisé par Atelier Grain de Web SARL',
      })?.name,
    ).toBe('Clinique Vétérinaire des Tilleuls');
  });

  it('prefers a written name to a bare host name', () => {
    const jsonLd = {
      ...empty,
      orgs: [{ name: 'bookstore.acme-usa.org', legalName: '', type: 'Organization', role: 'main' as const, url: '', emails: [], addresses: [] }],
    };
    const c = choose({
      domainLabel: 'acme-usa',
      microdata: jsonLd,
      visibleText: 'Visit ACME-USA.\nCopyright © Acme Gakkai Intl USA. All Rights Reserved. Powered By Volusion.',
    });
    expect(c?.name).toBe('Acme Gakkai Intl USA');
    expect(c?.brandName).toBe('ACME-USA');
    // The same organisation written as its host and as a name: the name, however often the host is written.
    const publication = choose({
      domainLabel: 'dailyexample',
      ogSiteName: 'The Daily Example',
      title: 'dailyexample.com',
      visibleText: '© 2024 dailyexample.com',
    });
    expect(publication?.name).toBe('The Daily Example');
  });

  it('reads a holder written before the sign as a spelling of the owner', () => {
    const c = choose({
      domainLabel: 'heise',
      ogSiteName: 'Mac & i',
      title: 'News | Mac & i',
      visibleText: 'heise online\nheise Mac & i\nCopyright © 2015 Heise Medien',
    });
    expect(c?.name).toBe('Heise Medien');
    expect(c?.brandName).toBe('Mac & i');
  });
});

describe('brand name without og:site_name', () => {
  it('is the fullest spelling the page really uses, not the shortest one inside it', () => {
    const c = choose({
      domainLabel: 'parksidewhistlerresort',
      title: 'Luxury Hotel | Parkside Whistler Resort & Club',
      visibleText: 'Parkside Whistler Resort & Club welcomes you. Book Parkside Whistler Resort & Club today.',
    });
    expect(c?.brandName).toBe('Parkside Whistler Resort & Club');
  });
});

describe('the legal entity stated apart from the brand', () => {
  it('takes the one entity an imprint or registration line states over a copyright line with the brand only', () => {
    const c = choose({
      domainLabel: 'hotel-gamskogel',
      title: 'Hotel Gamskogel',
      visibleText: 'Hotel Gamskogel in Obergurgl.\nGamskogel Hotelbetriebs GmbH & Co KG, FN 412233 k, Landesgericht Innsbruck\n© 2025 Hotel Gamskogel',
    });
    expect(c?.name).toBe('Gamskogel Hotelbetriebs GmbH & Co KG');
    expect(c?.brandName).toBe('Hotel Gamskogel');
  });

  it("takes the group's own strong spelling over its companies for a country, and one of those where it is all there is", () => {
    const offices = choose({
      domainLabel: 'liongatelogistics',
      title: 'Offices | Lion Gate Logistics',
      visibleText:
        'Our Offices\nSingapore\nLion Gate Logistics Pte. Ltd.\n25 International Business Park\nKuala Lumpur\nLion Gate Logistics (M) Sdn. Bhd.\nHo Chi Minh City\nLion Gate Logistics Vietnam Co., Ltd.\n© 2025 Lion Gate Logistics Pte. Ltd. (UEN 200812345W). All rights reserved.',
    });
    expect(offices?.name).toBe('Lion Gate Logistics Pte. Ltd.');
    const sweden = choose({ domainLabel: 'fjallgren', title: 'Fjällgren', visibleText: 'Fjällgren\nFjällgren Sverige AB\n© 2025 Fjällgren AB (publ)' });
    expect(sweden?.name).toBe('Fjällgren AB');
    // A name that only a country's company is written with keeps that spelling; other added words are the name's own.
    expect(choose({ domainLabel: 'fjallgren', title: 'Fjällgren', visibleText: 'Fjällgren\n© 2025 Fjällgren Sverige AB' })?.name).toBe('Fjällgren Sverige AB');
    expect(choose({ domainLabel: 'acme', title: 'Acme', visibleText: 'Acme\nAcme Ltd\n© 2025 Acme Widgets Ltd' })?.name).toBe('Acme Widgets Ltd');
  });

  it("reads a bracketed place or a region code after the group's name as a company for that place; on a site of that country, its own", () => {
    const japan = choose({
      domainLabel: 'sakuragi',
      title: 'SAKURAGI Global',
      visibleText:
        'Group companies\nSakuragi Electric (Shanghai) Co., Ltd.\nSakuragi Electric (Hong Kong) Limited\nSakuragi Electric Europe B.V.\nSakuragi Electric (Shanghai) Co., Ltd. opened a new plant.\n© Sakuragi Electric Co., Ltd.',
    });
    expect(japan?.name).toBe('Sakuragi Electric Co., Ltd.');
    // The group's country list, no legal statement: the company of the site's own country.
    const list = {
      domainLabel: 'halvorsenbrands',
      title: 'Halvorsen',
      visibleText: 'Halvorsen\nHalvorsen Brands, Inc.\nHalvorsen Brands UK Ltd\nHalvorsen Brands Pty Ltd',
    };
    const p = page(list);
    const inRegion = (region: string | null) =>
      chooseOwnerNames(collectNameCandidates(p), p.domainLabel, [p.title], [p.title, p.visibleText], [], [], region)?.name;
    expect(inRegion('GB')).toBe('Halvorsen Brands UK Ltd');
    expect(inRegion('AU')).toBe('Halvorsen Brands Pty Ltd');
    expect(inRegion(null)).toBe('Halvorsen Brands, Inc.');
    // A legal statement of the group's own name outweighs the country's company ("© Fjällgren AB (publ)" on a .se site).
    const se = page({ domainLabel: 'fjallgren', title: 'Fjällgren', visibleText: 'Fjällgren\nFjällgren Sverige AB\n© 2025 Fjällgren AB (publ)' });
    expect(chooseOwnerNames(collectNameCandidates(se), se.domainLabel, [se.title], [se.title, se.visibleText], [], [], 'SE')?.name).toBe('Fjällgren AB');
  });

  it("takes no sister company for another country as the site's legal spelling (an Australian Ltd on a .org.nz site)", () => {
    const p = page({
      domainLabel: 'seawardyouth',
      title: 'Privacy Statement | Seaward Youth',
      ogSiteName: 'Seaward Youth',
      visibleText:
        'Seaward Youth is the operating name of Te Ara Moana Youth Trust Board, a board incorporated under the Charitable Trusts Act 1957.\nOur sister organisation Seaward Youth Australia Ltd runs programmes in Sydney.\n© 2026 Seaward Youth',
      footerText: '© 2026 Seaward Youth',
    });
    const named = (region: string | null) =>
      chooseOwnerNames(collectNameCandidates(p), p.domainLabel, [p.ogSiteName, p.title], [p.title, p.visibleText], [], [], region)?.name;
    expect(named('NZ')).toBe('Te Ara Moana Youth Trust Board');
    // On the Australian site, or one of no country, the Australian company may be the site's own.
    expect(named('AU')).toBe('Seaward Youth Australia Ltd');
  });

  it("reads a statement that names the site by its domain's spelling as about the organisation", () => {
    const c = choose({
      domainLabel: 'sonrisamar',
      title: 'Política de privacidad | Clínica Dental Sonrisa Mar',
      ogSiteName: 'Clínica Dental Sonrisa Mar',
      visibleText:
        'Responsable del tratamiento: Odontología Integral Malvarrosa, S.L. (en adelante, «Sonrisa Mar» o «la Clínica»).\nEncargado: DentalNube Software, S.L.\n© 2026 Clínica Dental Sonrisa Mar',
      footerText: '© 2026 Clínica Dental Sonrisa Mar',
    });
    expect(c?.name).toBe('Odontología Integral Malvarrosa, S.L.');
  });

  it("reads a statement about the organisation's acronym, a stated legal name over a sister company's, a company of another country's form", () => {
    // "IIHBC" is the initials of the statement's subject
    const acronym = choose({
      domainLabel: 'iihbc',
      title: 'IIHBC | Home',
      ogSiteName: 'IIHBC',
      visibleText:
        'The Irish Institute of Heritage Building Conservators is the trading name of Heritage Building Conservators Ireland CLG, a company limited by guarantee.\n© 2026 IIHBC',
    });
    expect(acronym?.name).toBe('Heritage Building Conservators Ireland CLG');
    // "Its legal name is …" outweighs a strong form of a sister body that shares the name
    const school = choose({
      domainLabel: 'kowhaidowns',
      title: 'Governance | Kōwhai Downs School',
      ogSiteName: 'Kōwhai Downs School',
      visibleText: 'Its legal name is The Board of Trustees of Kōwhai Downs School.\nThe Kōwhai Downs School PTA Incorporated runs the fair.',
    });
    expect(school?.name).toBe('The Board of Trustees of Kōwhai Downs School');
    // a Malaysian Sdn. Bhd. on a Singapore site gives way to the company its terms name
    const p = page({
      domainLabel: 'lionport',
      title: 'Terms | Lionport Express',
      ogSiteName: 'Lionport Express',
      visibleText:
        'These terms are between you and Lionport Logistics Pte. Ltd. ("we", "us").\nIn Malaysia, deliveries are made by our related company Lionport Express Sdn. Bhd.\n© 2026 Lionport Express',
    });
    const named = (region: string | null) =>
      chooseOwnerNames(collectNameCandidates(p), p.domainLabel, [p.ogSiteName, p.title], [p.title, p.visibleText], [], [], region)?.name;
    expect(named('SG')).toBe('Lionport Logistics Pte. Ltd.');
    expect(named('MY')).toBe('Lionport Express Sdn. Bhd.');
  });

  it('takes the association an imprint names under its label when the organisation states no legal entity', () => {
    const c = choose({
      domainLabel: 'bergwaldhilfe',
      title: 'Impressum | Bergwaldhilfe',
      ogSiteName: 'Bergwaldhilfe',
      visibleText:
        'Impressum\nMedieninhaber und Herausgeber\nVerein zur Förderung der Bergwaldpflege Tirol\nKurz: Bergwaldhilfe\nAnichstraße 29/3\n6020 Innsbruck\n© 2026 Bergwaldhilfe',
      footerText: '© 2026 Bergwaldhilfe',
    });
    expect(c?.name).toBe('Verein zur Förderung der Bergwaldpflege Tirol');
  });

  it("names the region of a site's country-code domain", () => {
    expect([siteRegion('halvorsenbrands.co.uk'), siteRegion('acme.com.au'), siteRegion('acme.se'), siteRegion('acme.com'), siteRegion('acme.org')]).toEqual([
      'GB',
      'AU',
      'SE',
      null,
      null,
    ]);
  });

  it('takes none when the lines state several entities (a group registering its companies)', () => {
    const c = choose({
      domainLabel: 'acmegroup',
      title: 'Acme Group',
      visibleText:
        'Acme Group.\nAcme Build Ltd. Registered in England and Wales, company number 01234567.\nAcme Rail Ltd. Registered in England and Wales, company number 07654321.\n© 2025 Acme Group',
    });
    expect(c?.name).toBe('Acme Group');
  });

  it("reads a JSON-LD legalName that is not a spelling of the organisation's name as the entity behind it", () => {
    const org = {
      name: 'Paperbark HR',
      legalName: 'Gumleaf Software Pty Ltd',
      type: 'Organization',
      role: 'main' as const,
      url: '',
      emails: [],
      addresses: [],
    };
    const c = choose({
      domainLabel: 'paperbarkhr',
      title: 'Paperbark HR',
      visibleText: 'Paperbark HR\n© 2025 Paperbark HR',
      jsonLd: { ...empty, orgs: [org] },
    });
    expect(c?.name).toBe('Gumleaf Software Pty Ltd');
    expect(c?.brandName).toBe('Paperbark HR');
  });
});

describe('names that are not a name', () => {
  it("keeps the site's own name written in an address line, which is no town", () => {
    const places = placesOf(['612 Google reviews, Kingsmere Dental, 3 Quarry Street, Guildford GU1 3UY']);
    expect(isJunkName('Kingsmere Dental', 'kingsmeredental', places)).toBe(false);
    expect(isJunkName('Guildford', 'kingsmeredental', placesOf(['3 Quarry Street, Guildford, Surrey GU1 3UY']))).toBe(true);
  });

  it('reads places only after the street line: what comes before it names the recipient or the building', () => {
    const places = placesOf(['15 January 2024., Wattle & Wool, Studio: 8 Camp Street, Ballarat VIC 3350']);
    expect([...places]).toEqual(['ballaratvic']);
    expect(isJunkName('Wattle & Wool', 'wattleandwool', places)).toBe(false);
    expect([...placesOf(['1718 Connecticut Ave., NW, 6th Floor, Washington, DC 20009'])]).toEqual(['washington']);
    // No street number: everything after the first part, as before.
    expect([...placesOf(['Economic House, PO Box 9, High Street, Coventry CV1 5QN'])]).toEqual(['pobox', 'highstreet', 'coventrycvqn']);
  });

  it("drops a town of the page's own address and a navigation heading", () => {
    const p = page({ domainLabel: 'acmeplumbing', title: 'Springfield | Office Locations | Acme Plumbing', visibleText: 'Call Acme Plumbing.' });
    const c = chooseOwnerNames(collectNameCandidates(p), p.domainLabel, [], [p.title, p.visibleText], ['1 Main St, Springfield, IL 62701']);
    expect(c?.name).toBe('Acme Plumbing');
    expect(isJunkName('Springfield', 'acme', placesOf(['1 Main St, Springfield, IL 62701']))).toBe(true);
  });

  it('does not take a person holding the copyright for the legal entity', () => {
    const c = choose({
      domainLabel: 'eldercarelawyer',
      title: 'Law Offices of Callinan',
      visibleText: 'Law Offices of Callinan\nCopyright © 2009-2012 John W. Callinan. All Rights Reserved.',
    });
    expect(c?.name).toBe('Law Offices of Callinan');
  });
});

describe('brand name from legal spellings', () => {
  it('counts a spelling without its legal form as the pages write it', () => {
    const c = choose({
      domainLabel: 'upwardconstruction',
      title: 'Contractors',
      visibleText:
        'Upward Construction builds. Upward Construction & Renovation Ltd is family run.\nUpward Construction & Renovation Ltd\n© 2014 Upward Construction & Renovation Ltd.',
    });
    expect(c?.name).toBe('Upward Construction & Renovation Ltd');
    expect(c?.brandName).toBe('Upward Construction & Renovation');
  });
});
