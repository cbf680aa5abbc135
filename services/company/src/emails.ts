/**
 * Email addresses from every place a page hides them: mailto links, visible text (plain and written
 * out as "name [at] domain [dot] com"), structured data, and Cloudflare's email obfuscation.
 */
import { createRequire } from 'node:module';
import type { Anchor } from '@enrich/shared/contracts';
import { decodeEntities } from '@enrich/shared/page';
import { ENTITY_OPTIONS } from './text.ts';

const require = createRequire(import.meta.url);
/** IANA's top-level domains (the `tlds` package): what a written-out address must end with. */
const TLDS = new Set<string>(require('tlds') as string[]);

export type EmailSource = 'mailto' | 'text' | 'jsonld' | 'microdata' | 'cloudflare';
export interface FoundEmail {
  email: string;
  source: EmailSource;
}

/** Cloudflare's email protection: the first byte is an XOR key for the rest of the hex string. */
export function decodeCfEmail(hex: string): string | null {
  if (!/^(?:[0-9a-f]{2}){2,}$/i.test(hex)) return null;
  const key = parseInt(hex.slice(0, 2), 16);
  const bytes = new Uint8Array(hex.length / 2 - 1);
  for (let i = 2; i < hex.length; i += 2) bytes[i / 2 - 1] = parseInt(hex.slice(i, i + 2), 16) ^ key;
  // The protected text is UTF-8, as Cloudflare's own decoder reads it.
  return new TextDecoder().decode(bytes);
}

const CF_HREF = /\/cdn-cgi\/l\/email-protection#([0-9a-f]+)/i;

/**
 * One recipient of a mailto link as pages write it, beyond RFC 6068's bare address: a display name
 * with the address in angle brackets ("Sales Team <sales@acme.com>") and the slashes of a web link
 * ("mailto://sales@acme.com"), which mail programs accept.
 */
function mailtoRecipient(raw: string): string {
  const bracketed = /<([^<>]+)>\s*$/.exec(raw)?.[1];
  return (bracketed ?? raw).trim().replace(/^\/\//, '');
}

/** Emails in mailto: links and Cloudflare-protected links. */
export function emailsFromAnchors(anchors: readonly Anchor[]): FoundEmail[] {
  const out: FoundEmail[] = [];
  for (const a of anchors) {
    if (/^mailto:/i.test(a.href)) {
      let target = a.href.slice(7).split('?')[0] ?? '';
      try {
        target = decodeURIComponent(target);
      } catch {
        // keep the raw text: a stray % is no reason to lose the address
      }
      for (const e of target.split(/[,;]/)) out.push({ email: mailtoRecipient(e), source: 'mailto' });
    } else {
      const m = CF_HREF.exec(a.href);
      const decoded = m ? decodeCfEmail(m[1]!) : null;
      if (decoded) out.push({ email: decoded, source: 'cloudflare' });
    }
  }
  return out;
}

/** Emails behind Cloudflare's `data-cfemail` spans and protected hrefs in the raw HTML. */
export function emailsFromCloudflareHtml(html: string): FoundEmail[] {
  const out: FoundEmail[] = [];
  for (const m of html.matchAll(/data-cfemail\s*=\s*["']?([0-9a-fA-F]+)|\/cdn-cgi\/l\/email-protection#([0-9a-fA-F]+)/g)) {
    const decoded = decodeCfEmail(m[1] ?? m[2]!);
    if (decoded) out.push({ email: decoded, source: 'cloudflare' });
  }
  return out;
}

// The characters real mailboxes use. RFC 5322 allows more (| { } / = …), but on pages those are the
// separators of text glued to an address ("273-5154|info@acme.com"), not part of it.
const LOCAL = "[a-zA-Z0-9_%+'-]+(?:\\.[a-zA-Z0-9_%+'-]+)*";
const PLAIN = new RegExp(`(?<![\\w.+@-])(${LOCAL})@((?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,24})(?![\\w-])`, 'g');
// Written-out forms: "name [at] domain [dot] com", "name(at)domain(dot)com", "name at domain dot com";
// in brackets also the words of other languages: "info(ät)firma(punkt)de", "info[arroba]empresa[punto]es".
const AT = String.raw`(?:\s*[\[({<]\s*(?:at|AT|ät|@|arroba|arobase|chiocciola|snabel-a)\s*[\])}>]\s*|\s+(?:at|AT)\s+|\s*@\s*)`;
const DOT = String.raw`(?:\s*[\[({<]\s*(?:dot|DOT|punkt|Punkt|punto|point|ponto|\.)\s*[\])}>]\s*|\s+(?:dot|DOT)\s+|\.)`;
const WRITTEN = new RegExp(String.raw`(?<![\w.+-])([\w.+-]+)(${AT})([a-zA-Z0-9-]+(?:${DOT}[a-zA-Z0-9-]+)+)(?![\w-])`, 'g');

const DOMAIN_AT_START = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+[a-zA-Z]{2,24}/;

/**
 * A plain address as the text shows it, pulled apart from a word glued to its end. Text built from
 * markup often loses the space after a link: script-written addresses next to the copy a saved page
 * kept ("info@acme.cominfo@acme.com") or a hidden "This e-mail address is being protected" span
 * ("info@acme.comThis"). A top-level domain is never mixed-case, and an address never runs straight
 * into another "@": the glued one is split where its domain equals the next address's, or dropped.
 */
function unglue(local: string, domain: string, text: string, end: number): string[] {
  const labels = domain.split('.');
  const last = labels.pop()!;
  const cased = /^(?:[a-z]{2,}(?=[A-Z])|[A-Z]{2,}(?=[A-Z][a-z]))/.exec(last);
  if (cased) return [`${local}@${[...labels, cased[0]].join('.')}`];
  if (text[end] !== '@') return [`${local}@${domain}`];
  const next = DOMAIN_AT_START.exec(text.slice(end + 1))?.[0];
  if (!next) return [];
  for (let k = last.length - 1; k >= 2; k--) {
    const first = [...labels, last.slice(0, k)].join('.');
    // The next address may itself run into a third: its domain then carries letters past `first`.
    if (next.toLowerCase().startsWith(first.toLowerCase()) && /^[a-zA-Z]*$/.test(next.slice(first.length))) {
      return [`${local}@${first}`, ...unglue(last.slice(k), next, text, end + 1 + next.length)];
    }
  }
  return [];
}

/** Emails in running text, plain and obfuscated, with HTML entities decoded first. */
export function findEmailsInText(raw: string): string[] {
  // The full-width at sign (＠), which Japanese and Chinese pages write so that scrapers miss the address.
  const text = decodeEntities(raw, ENTITY_OPTIONS).replace(/＠/g, '@');
  const out: string[] = [];
  for (const m of text.matchAll(PLAIN)) out.push(...unglue(m[1]!, m[2]!, text, m.index + m[0].length));
  for (const m of text.matchAll(WRITTEN)) {
    const [, local, at, rest] = m as unknown as [string, string, string, string];
    const obfuscatedDot = /dot|DOT|[\[({<]/.test(rest);
    // " at " alone is ordinary English ("meet us at acme.com"): trust it only with a written-out dot.
    if (/^\s+(?:at|AT)\s+$/.test(at) && !obfuscatedDot) continue;
    if (at.trim() === '@' && !obfuscatedDot && !/\s/.test(at)) continue; // plain, already found
    const domain = rest.replace(new RegExp(DOT, 'g'), '.');
    // An instruction is no address: "replace (at) with @ and DOT with a period" reads "with@and.with".
    if (!TLDS.has(domain.slice(domain.lastIndexOf('.') + 1).toLowerCase())) continue;
    out.push(`${local}@${domain}`);
  }
  return out;
}

const FILE_TLD = /\.(?:png|jpe?g|gif|svg|webp|bmp|ico|tiff?|css|js|json|mp4|webm|pdf|php|html?|asp|woff2?)$/i;
// Error reporting, placeholder and example domains, and the bounce/tracking domains of the big email
// services (SendGrid, Mailchimp, Marketo, Amazon SES, Mailgun, SparkPost, Campaign Monitor, HubSpot):
// an address there is a message id, never a contact.
const JUNK_DOMAIN =
  /(?:^|\.)(?:sendgrid\.net|mcsv\.net|list-manage\.com|rsgsv\.net|mktomail\.com|amazonses\.com|mailgun\.org|sparkpostmail\.com|createsend\.com|cmail\d+\.com|hubspotemail\.net|sentry\.io|sentry-next\.wixpress\.com|wixpress\.com|sentry\.[a-z.]+|example\.(?:com|org|net)|domain\.(?:com|tld)|yourdomain\.[a-z.]+|yoursite\.[a-z.]+|yourcompany\.[a-z.]+|mysite\.com|mydomain\.com|doe\.com|website\.com|company\.com|email\.(?:com|tld)|test\.com|sample\.com|acme\.test|localhost|beispiel\.(?:de|at|ch|com)|musterfirma\.[a-z.]+|mustermann\.[a-z.]+|ihre-?domain\.[a-z.]+|exemple\.(?:fr|com|org)|votre-?(?:site|domaine)\.[a-z.]+|ejemplo\.(?:com|es|org)|tu-?dominio\.[a-z.]+|esempio\.(?:it|com)|tuo-?dominio\.[a-z.]+|voorbeeld\.(?:nl|com)|jouw-?domein\.[a-z.]+)$/i;
// Placeholders of form hints and templates, in English and the main European languages ("max.mustermann",
// "vorname.nachname", "prenom.nom", "nome.cognome"); "email@" and "info@" on a real domain are real addresses.
// The example domains of those languages (beispiel.de, exemple.fr, ejemplo.com, esempio.it, voorbeeld.nl) are above.
const JUNK_LOCAL =
  /^(?:your?(?:[._-]?(?:name|email|address))?|(?:parent|student|user|customer|member|full|first|last)[._-]?name|first\.?last|firstname\.?lastname|john\.?doe|jane\.?doe|someone|noreply|no-reply|donotreply|do-not-reply|max\.?mustermann|erika\.?mustermann|vorname\.?nachname|ihre?[._-]?(?:e-?mail|name|adresse)|pr[ée]nom\.?nom|votre[._-]?(?:e-?mail|nom|adresse)|nombre\.?apellido|tu[._-]?(?:correo|e-?mail|nombre)|nome\.?cognome|tu[oa][._-]?(?:e-?mail|nome)|jouw[._-]?(?:naam|e-?mail)|[0-9a-f]{32})$/i;

/** Lower-cased address if it is a real, deliverable-looking email, else null. */
export function cleanEmail(raw: string): string | null {
  const e = raw
    .trim()
    .replace(/^mailto:/i, '')
    .replace(/^[<("'\s]+|[>)"'.,;:\s]+$/g, '')
    .toLowerCase();
  const at = e.lastIndexOf('@');
  if (at < 1 || e.indexOf('@') !== at) return null;
  const local = e.slice(0, at);
  const domain = e.slice(at + 1);
  if (local.length > 64 || domain.length > 253 || local.includes('..') || local.startsWith('.') || local.endsWith('.')) return null;
  if (!/^[a-z0-9_%+'.-]+$/.test(local)) return null;
  if (!/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24}$/.test(domain)) return null;
  if (FILE_TLD.test(domain) || /@\d+x\./.test(e)) return null;
  if (JUNK_DOMAIN.test(domain) || JUNK_LOCAL.test(local)) return null;
  return e;
}

/**
 * Valid, deduplicated emails; same-site addresses first, otherwise first-seen order. An address seen
 * only in text that is another found address plus a few letters ("sales@acme.comsales") is that
 * address glued to the next word, not a second address.
 */
export function rankEmails(found: readonly FoundEmail[], siteDomain: string): { emails: string[]; sources: EmailSource[] } {
  const kinds = new Map<string, Set<EmailSource>>();
  for (const f of found) {
    const e = cleanEmail(f.email);
    if (!e) continue;
    const k = kinds.get(e) ?? new Set<EmailSource>();
    k.add(f.source);
    kinds.set(e, k);
  }
  const glued = (e: string): boolean =>
    [...kinds.get(e)!].every((s) => s === 'text') && [...kinds.keys()].some((other) => e.startsWith(other) && /^[a-z]{2,}$/.test(e.slice(other.length)));
  const list = [...kinds.keys()].filter((e) => !glued(e));
  const kept = new Set(list);
  const sources = new Set(found.filter((f) => kept.has(cleanEmail(f.email) ?? '')).map((f) => f.source));
  const same = (e: string): boolean => !!siteDomain && (e.endsWith(`@${siteDomain}`) || e.endsWith(`.${siteDomain}`));
  const emails = [...list.filter(same), ...list.filter((e) => !same(e))];
  return { emails, sources: [...sources] };
}
