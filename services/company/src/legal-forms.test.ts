import { describe, expect, it } from 'vitest';
import { cjkLegalSpellingIn, hasStrongLegalForm, legalFormOf, stripLegalForm } from './legal-forms.ts';
import { findLegalNamesInText } from './legal-name.ts';

describe('legal forms', () => {
  it.each([
    ['Acme Widgets, Inc.', 'Inc.'],
    ['Acme Widgets Inc', 'Inc'],
    ['Land Pro, LLC', 'LLC'],
    ['The Ritz-Carlton Hotel Company, L.L.C.', 'L.L.C.'],
    ['Prepress Express Ltd', 'Ltd'],
    ['McCain Foods Limited', 'Limited'],
    ['KCOM Group PLC', 'PLC'],
    ['Katz Marshall & Banks LLP', 'LLP'],
    ['Stryker Corporation', 'Corporation'],
    ['Office Depot Corp.', 'Corp.'],
    ['Siemens AG', 'AG'],
    ['Muster GmbH', 'GmbH'],
    ['Muster GmbH & Co. KG', 'GmbH & Co. KG'],
    ['Start UG (haftungsbeschränkt)', 'UG (haftungsbeschränkt)'],
    ['Kaufhaus KG', 'KG'],
    ['Telefónica S.A.', 'S.A.'],
    ['Mercadona S.L.', 'S.L.'],
    ['Dupont SAS', 'SAS'],
    ['Boulangerie Martin SARL', 'SARL'],
    ['Ferrari S.p.A.', 'S.p.A.'],
    ['Pasta Rossi S.r.l.', 'S.r.l.'],
    ['Philips B.V.', 'B.V.'],
    ['Unilever N.V.', 'N.V.'],
    ['Visionera AB', 'AB'],
    ['Equinor AS', 'AS'],
    ['Lego A/S', 'A/S'],
    ['Hansen ApS', 'ApS'],
    ['Nokia Oy', 'Oy'],
    ['FinCar Pty Ltd.', 'Pty Ltd.'],
    ['Sony K.K.', 'K.K.'],
    ['Medtronic Korea Co. Ltd', 'Co. Ltd'],
    ['Grab Pte. Ltd.', 'Pte. Ltd.'],
    // Further jurisdictions (ISO 20275 entity legal forms): Southern Africa, the Gulf, Malaysia, the Baltics, CIS, Turkey, the Balkans.
    ['Acme (Pty) Ltd', '(Pty) Ltd'],
    ['Acme Trading FZ-LLC', 'FZ-LLC'],
    ['Acme Gulf W.L.L.', 'W.L.L.'],
    ['Acme Berhad', 'Berhad'],
    ['Acme Sdn. Bhd.', 'Sdn. Bhd.'],
    ['Acme OÜ', 'OÜ'],
    ['Acme SIA', 'SIA'],
    ['Acme UAB', 'UAB'],
    ['Acme PJSC', 'PJSC'],
    ['Acme Gıda A.Ş.', 'A.Ş.'],
    ['Acme Ltd. Şti.', 'Ltd. Şti.'],
    ['Acme EOOD', 'EOOD'],
    ['Acme spol. s r.o.', 'spol. s r.o.'],
    ['Acme S. de R.L. de C.V.', 'S. de R.L. de C.V.'],
    ['Smith & Jones, P.A.', 'P.A.'],
    ['Harborline Bank, N.A.', 'N.A.'],
    ['Acme Nyrt.', 'Nyrt.'],
    ['Hallstein & Roder Rechtsanwälte PartG mbB', 'PartG mbB'],
    ['Weber Architekten PartG', 'PartG'],
  ])('recognises the suffix of %s', (name, form) => {
    expect(legalFormOf(name)).toBe(form);
    expect(hasStrongLegalForm(name)).toBe(true);
  });

  it.each([
    ['株式会社サンプル', '株式会社', 'サンプル'],
    ['サンプル株式会社', '株式会社', 'サンプル'],
    ['示例科技有限公司', '有限公司', '示例科技'],
    ['주식회사 샘플', '주식회사', '샘플'],
    ['(주)샘플', '(주)', '샘플'],
    ['ООО «Пример»', 'ООО', '«Пример»'],
    ['Παράδειγμα Α.Ε.', 'Α.Ε.', 'Παράδειγμα'],
    ['דוגמה בע״מ', 'בע״מ', 'דוגמה'],
    // Japan's corporations of the professions and of public benefit, written before the name.
    ['税理士法人かえでばし会計', '税理士法人', 'かえでばし会計'],
    ['医療法人社団青葉会', '医療法人社団', '青葉会'],
    ['一般社団法人サンプル協会', '一般社団法人', 'サンプル協会'],
    ['合同会社サンプル', '合同会社', 'サンプル'],
  ])('reads the Japanese, Chinese, Korean, Cyrillic, Greek or Hebrew form of %s, before or after the name', (name, form, bare) => {
    expect(legalFormOf(name)).toBe(form);
    expect(hasStrongLegalForm(name)).toBe(true);
    expect(stripLegalForm(name)).toBe(bare);
  });

  it('strips exactly the suffix and its comma', () => {
    expect(stripLegalForm('Acme Widgets, Inc.')).toBe('Acme Widgets');
    expect(stripLegalForm('Muster GmbH & Co. KG')).toBe('Muster');
    expect(stripLegalForm('FinCar Pty Ltd.')).toBe('FinCar');
    expect(stripLegalForm('Acme Widgets')).toBe('Acme Widgets');
  });

  it('knows the forms of European partnerships, cooperatives, non-profits and sole traders', () => {
    for (const [name, f] of [
      ['Huber & Steiner Sport OG', 'OG'],
      ['Elbtaler Erzeugergemeinschaft eG', 'eG'],
      ['Odontología Integral Norte, S.L.P.', 'S.L.P.'],
      ['Olivarera San Isidro, S. Coop. And.', 'S. Coop. And.'],
      ['Mulino Antico S.n.c. di Esposito Gennaro & C.', 'S.n.c. di Esposito Gennaro & C.'],
      ['Fondazione Giacomo Valfredda ETS', 'ETS'],
      ['Les Amis de la Marelle ASBL', 'ASBL'],
      ['Julien Marchal EI', 'EI'],
      ['Domaine des Tilleuls EARL', 'EARL'],
    ] as const) {
      expect(legalFormOf(name)).toBe(f);
      expect(hasStrongLegalForm(name)).toBe(true);
    }
    // A German floor ("2. OG") and the ground floor ("EG") name no company.
    expect(findLegalNamesInText('Büro: Hauptstraße 5, 2. OG, 80331 München')).toEqual([]);
    expect(findLegalNamesInText('Unsere Filiale im EG')).toEqual([]);
  });

  it('does not read ordinary words or lower-case short forms as legal forms', () => {
    expect(legalFormOf('Treat yourself as')).toBeNull();
    expect(legalFormOf('Acme Widgets')).toBeNull();
    expect(legalFormOf('Incubator')).toBeNull();
    // Short forms are exact: "sia", "pa" and "uab" in running text are no forms.
    expect(legalFormOf('Acme Asia')).toBeNull();
    expect(legalFormOf('Pittsburgh, PA')).toBeNull();
    expect(hasStrongLegalForm('Topping D90 DAC')).toBe(false);
    expect(hasStrongLegalForm('NASA JSC')).toBe(false);
    // "Company" alone names many brands; it is a legal form but not a strong one.
    expect(legalFormOf('First California Mortgage Company')).toBe('Company');
    expect(hasStrongLegalForm('First California Mortgage Company')).toBe(false);
  });

  it('finds the legal spelling a text gives a Chinese, Japanese or Korean name, which has no spaces to end it by', () => {
    expect(cjkLegalSpellingIn('かえでばし会計', '税理士法人かえでばし会計は、渋谷を拠点に')).toBe('税理士法人かえでばし会計');
    expect(cjkLegalSpellingIn('サクラテック', '私たちサクラテック株式会社は')).toBe('サクラテック株式会社');
    expect(cjkLegalSpellingIn('サクラテック', 'サクラテックの製品')).toBeNull();
    // A Latin name, or one already with its form, is left to the other readers.
    expect(cjkLegalSpellingIn('Acme', 'Acme 株式会社')).toBeNull();
    expect(cjkLegalSpellingIn('株式会社サンプル', '株式会社サンプル')).toBeNull();
  });
});
