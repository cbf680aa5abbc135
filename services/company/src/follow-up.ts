/**
 * Which same-site links to follow when the page lacks a legal name or contact data: clearly
 * contact, about, imprint or terms/privacy pages, chosen from the page's anchors. The edge renders them.
 */
import type { Anchor } from '@enrich/shared/contracts';
import { sameSitePageLinks } from '@enrich/shared/page';

export type PageKind = 'contact' | 'imprint' | 'terms' | 'about';

const KIND_PATTERNS: Array<[PageKind, RegExp]> = [
  [
    'imprint',
    /\b(?:impressum|impresszum|imprint|legal[-_ ]?notice|mentions[-_ ]?l[ée]gales|informations[-_ ]?l[ée]gales|colofon|colophon|site[-_ ]?notice|aviso[-_ ]?legal|note[-_ ]?legali|anbieterkennzeichnung)\b|特定商取引法|特商法/i,
  ],
  // Terms of service and privacy policies name the operator as a contract party: `Acme, Inc. ("we")`.
  [
    'terms',
    /\b(?:terms(?:[-_ ]?(?:of[-_ ]?(?:service|use|sale)|and[-_ ]?conditions|(?:&|and)[-_ ]?privacy))?|conditions[-_ ]?of[-_ ]?use|tos|privacy(?:[-_ ]?(?:policy|notice|statement))?|legal|agb|datenschutz(?:erkl(?:ä|ae)rung)?|cgv|cgu|conditions[-_ ]?g[ée]n[ée]rales|privacidad|t[ée]rminos|termini|condizioni|voorwaarden|privacybeleid|privacyverklaring)\b|利用規約|プライバシーポリシー|隐私政策|用户协议|이용약관|개인정보처리방침/i,
  ],
  [
    'contact',
    /\b(?:contact(?:[-_ ]?us)?|kontakt|kontakty|contacto|contato|contatti|contatto|contactez[-_ ]?nous|yhteystiedot|iletisim|iletişim|kapcsolat|get[-_ ]?in[-_ ]?touch|locations?|find[-_ ]?us|directions)\b|お問い合わせ|お問合せ|アクセス|联系我们|聯絡我們|문의|오시는\s?길/i,
  ],
  [
    'about',
    /\b(?:about(?:[-_ ]?us)?|company|who[-_ ]?we[-_ ]?are|our[-_ ]?story|ueber[-_ ]?uns|uber[-_ ]?uns|über[-_ ]?uns|qui[-_ ]?sommes[-_ ]?nous|a[-_ ]?propos|over[-_ ]?ons|chi[-_ ]?siamo|quienes[-_ ]?somos|qui[ée]nes[-_ ]?somos|sobre[-_ ]?(?:n[oó]s|nosotros)|o[-_ ]?nas|om[-_ ]?(?:oss|os)|hakk[iı]m[iı]zda|r[oó]lunk|meist[aä])\b|会社概要|会社案内|企業情報|关于我们|公司简介|關於我們|회사소개/i,
  ],
];

/** The kind of page an anchor clearly points to, judged by its path and its label, or null. */
export function pageKindOf(anchor: Anchor): PageKind | null {
  let path = '';
  try {
    path = decodeURIComponent(new URL(anchor.href).pathname);
  } catch {
    return null;
  }
  const label = `${anchor.text} ${anchor.title ?? ''} ${anchor.ariaLabel ?? ''}`.trim();
  if (label.length > 60) return null; // a paragraph that mentions "contact" is not a menu link
  for (const [kind, re] of KIND_PATTERNS) {
    if (re.test(path.replace(/[/.]/g, ' ')) || re.test(label)) return kind;
  }
  return null;
}

export interface Missing {
  legalName: boolean;
  contact: boolean;
}

/** At most two links, best first: the kind that fills what is missing comes first, one per kind. */
export function chooseFollowUpLinks(anchors: readonly Anchor[], pageUrl: string, siteDomain: string, missing: Missing): string[] {
  if (!missing.legalName && !missing.contact) return [];
  const byKind = new Map<PageKind, string>();
  for (const { anchor: a, url } of sameSitePageLinks(anchors, pageUrl, siteDomain)) {
    const kind = pageKindOf(a);
    if (kind && !byKind.has(kind)) byKind.set(kind, url);
  }
  // The legal name: an imprint states it outright, terms define the operator as a party, an about
  // page may name it; a contact page rarely does.
  const order: PageKind[] =
    missing.contact && !missing.legalName
      ? ['contact', 'imprint', 'about']
      : missing.legalName && !missing.contact
        ? ['imprint', 'terms', 'about', 'contact']
        : ['contact', 'imprint', 'terms', 'about'];
  const out: string[] = [];
  for (const k of order) {
    const u = byKind.get(k);
    if (u && !out.includes(u)) out.push(u);
  }
  return out.slice(0, 2);
}
