import { describe, expect, it } from 'vitest';
import type { Anchor } from '@enrich/shared/contracts';
import { cleanEmail, decodeCfEmail, emailsFromAnchors, emailsFromCloudflareHtml, findEmailsInText, rankEmails } from './emails.ts';

const anchor = (href: string, text = ''): Anchor => ({ href, text, title: null, ariaLabel: null, rel: null, region: 'footer', box: null, visible: true });

describe('emails', () => {
  it('decodes Cloudflare email protection (XOR with the first byte), including UTF-8', () => {
    expect(decodeCfEmail('4231232e27310223212f27352b26252736316c212d2f')).toBe('sales@acmewidgets.com');
    expect(decodeCfEmail('422b2c242d023881fe302b212a6f2081fe302d6c212a')).toBe('info@zürich-büro.ch');
    expect(decodeCfEmail('not-hex')).toBeNull();
  });

  it('finds data-cfemail spans and protected hrefs in HTML', () => {
    const html =
      '<a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="4231232e27310223212f27352b26252736316c212d2f">[email&#160;protected]</a>' +
      '<a href="/cdn-cgi/l/email-protection#7a121f1616153a1b19171f0d131e1d1f0e0954191517">Write us</a>';
    expect(emailsFromCloudflareHtml(html).map((e) => e.email)).toEqual(['sales@acmewidgets.com', 'hello@acmewidgets.com']);
  });

  it('reads mailto links with query strings, percent-encoding and several recipients', () => {
    const found = emailsFromAnchors([
      anchor('mailto:%6A%6D%62%40%61%74%61%63%2E%63%6F%6D?subject=Customer Query'),
      anchor('mailto:a@acme.example,b@acme.example'),
      anchor('https://acme.example/cdn-cgi/l/email-protection#7a121f1616153a1b19171f0d131e1d1f0e0954191517'),
      anchor('https://acme.example/contact'),
    ]);
    expect(found).toEqual([
      { email: 'jmb@atac.com', source: 'mailto' },
      { email: 'a@acme.example', source: 'mailto' },
      { email: 'b@acme.example', source: 'mailto' },
      { email: 'hello@acmewidgets.com', source: 'cloudflare' },
    ]);
  });

  it('reads a mailto recipient written with a display name or with the slashes of a web link', () => {
    const found = emailsFromAnchors([
      anchor('mailto:Sales%20Team%20%3Csales@acme.example%3E'),
      anchor('mailto:Press <press@acme.example>, //jobs@acme.example'),
      anchor('mailto://info@acme.example?subject=Hello'),
    ]);
    expect(found.map((f) => f.email)).toEqual(['sales@acme.example', 'press@acme.example', 'jobs@acme.example', 'info@acme.example']);
  });

  it.each([
    ['Email: info@acmewidgets.com.', 'info@acmewidgets.com'],
    ['write to sales [at] acmewidgets [dot] com today', 'sales@acmewidgets.com'],
    ['sales(at)acmewidgets(dot)co(dot)uk', 'sales@acmewidgets.co.uk'],
    ['mayoinfo at mayoclinic dot com', 'mayoinfo@mayoclinic.com'],
    ['kontakt {at} beispiel.de', 'kontakt@beispiel.de'],
    ['info&#64;acmewidgets&#46;com', 'info@acmewidgets.com'],
    ['press AT acme DOT org', 'press@acme.org'],
    // Other languages' words in brackets, and the full-width at sign.
    ['info(at)beispiel(punkt)de', 'info@beispiel.de'],
    ['info(ät)beispiel.de', 'info@beispiel.de'],
    ['info [arroba] empresa [punto] es', 'info@empresa.es'],
    ['contact [arobase] societe [point] fr', 'contact@societe.fr'],
    ['info＠acme.co.jp', 'info@acme.co.jp'],
  ])('finds %s', (text, email) => {
    expect(findEmailsInText(text)).toEqual([email]);
  });
});

describe('emails in text', () => {
  it('pulls apart an address glued to the next word or to a second copy of itself', () => {
    // A saved Joomla page: the cloaking script runs again in the browser and writes its link beside the saved copy.
    expect(findEmailsInText('| moreinfo@leewardpro.commoreinfo@leewardpro.com\nHome')).toEqual(['moreinfo@leewardpro.com', 'moreinfo@leewardpro.com']);
    expect(findEmailsInText('a@acme.comb@acme.comc@acme.com')).toEqual(['a@acme.com', 'b@acme.com', 'c@acme.com']);
    // The hidden "protected from spambots" span follows the link without a space in static text.
    expect(findEmailsInText('Email: sales@informt.comThis e-mail address is being protected')).toEqual(['sales@informt.com']);
    expect(findEmailsInText('INFO@ACME.COMContact us')).toEqual(['INFO@ACME.COM']);
    // Glued to an address of another domain: no split is safe, so neither half is read.
    expect(findEmailsInText('x@acme.comy@other.org')).toEqual([]);
    expect(findEmailsInText('Write to Info@Acme.Com today')).toEqual(['Info@Acme.Com']);
  });

  it('does not read "at" in ordinary prose as an email', () => {
    expect(findEmailsInText('Meet us at acmewidgets.com or at the fair.')).toEqual([]);
  });

  it.each([
    'logo@2x.png',
    'icon@3x.webp',
    'abc123@sentry.io',
    '8f1d2c3b4a5968778695a4b3c2d1e0f1@sentry-next.wixpress.com',
    'user@example.com',
    'your.name@yourdomain.com',
    'john.doe@company.com',
    'bad@@acme.com',
    'no-at-sign.acme.com',
    'noreply@acme.com',
    'max.mustermann@musterfirma.de',
    'info@beispiel.de',
    'vorname.nachname@acme-gmbh.de',
    'prenom.nom@exemple.fr',
    'nombre.apellido@ejemplo.com',
    'nome.cognome@esempio.it',
    'info@voorbeeld.nl',
  ])('drops junk %s', (e) => {
    expect(cleanEmail(e)).toBeNull();
  });

  it.each(['kontakt@beispiel-software.de', 'info@mueller-bau.de', 'mario@rossi-pasticceria.it'])('keeps the real address %s', (e) => {
    expect(cleanEmail(e)).toBe(e);
  });

  it('reads no written-out address whose last part is no top-level domain (an instruction to the reader)', () => {
    expect(findEmailsInText('billing AT mapleridgephysio DOT ca. Please replace (at)/AT with @ and DOT with a period.')).toEqual([
      'billing@mapleridgephysio.ca',
    ]);
  });

  it('drops the placeholders of form hints: jane@doe.com, parent.name@gmail.com', () => {
    expect(['jane@doe.com', 'parent.name@gmail.com', 'user_name@acme.com', 'jane.parent@gmail.com'].map(cleanEmail)).toEqual([
      null,
      null,
      null,
      'jane.parent@gmail.com',
    ]);
  });

  it('lower-cases, deduplicates and puts same-site addresses first', () => {
    const { emails, sources } = rankEmails(
      [
        { email: 'Owner@Gmail.com', source: 'text' },
        { email: 'Sales@AcmeWidgets.com', source: 'mailto' },
        { email: 'sales@acmewidgets.com', source: 'text' },
        { email: 'support@help.acmewidgets.com', source: 'jsonld' },
        { email: 'logo@2x.png', source: 'text' },
      ],
      'acmewidgets.com',
    );
    expect(emails).toEqual(['sales@acmewidgets.com', 'support@help.acmewidgets.com', 'owner@gmail.com']);
    expect(sources).toEqual(['text', 'mailto', 'jsonld']);
  });

  it('drops a text address that is a linked address glued to the next word, keeps real look-alikes', () => {
    const { emails, sources } = rankEmails(
      [
        { email: 'sales@informt.com', source: 'mailto' },
        { email: 'sales@informt.comsales', source: 'text' },
        { email: 'info@acme.co', source: 'text' },
        { email: 'info@acme.com', source: 'text' },
        { email: 'team@acme.comedy', source: 'mailto' },
      ],
      'informt.com',
    );
    expect(emails).toEqual(['sales@informt.com', 'info@acme.co', 'info@acme.com', 'team@acme.comedy']);
    expect(sources).toEqual(['mailto', 'text']);
  });
});

describe('addresses glued to the text before them', () => {
  it('cuts a phone number or separator off the local part', () => {
    expect(findEmailsInText('Call 273-5154|info@acme.com today')).toEqual(['info@acme.com']);
    expect(cleanEmail('273-5154|info@acme.com')).toBeNull();
    expect(cleanEmail("o'brien@acme.com")).toBe("o'brien@acme.com");
  });
});

describe('tracking addresses', () => {
  it('drops bounce and tracking addresses of email services', () => {
    expect(cleanEmail('bounce-123@em1234.sendgrid.net')).toBeNull();
    expect(cleanEmail('abc123@mail87.us4.mcsv.net')).toBeNull();
    expect(cleanEmail('sales@acme.com')).toBe('sales@acme.com');
  });
});
