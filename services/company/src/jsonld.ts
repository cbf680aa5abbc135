/**
 * Reads organisations, site names, emails and postal addresses out of the raw JSON-LD blocks of a
 * snapshot. Parsing (and its tolerance of broken blocks) is the shared reader's
 * (@enrich/shared/page, jsonld.ts); a block that stays unreadable is skipped.
 */
import { decodeEntities, isJsonObject as isObject, jsonLdTypes as typesOf, parseJsonLd, type Json, type JsonObject } from '@enrich/shared/page';
import { ENTITY_OPTIONS, normalizeLine } from './text.ts';
import {
  bareType,
  emptyAddress,
  isAddressType,
  isOrgType,
  type OrgRole,
  type PostalAddressFields,
  type StructuredData,
  type StructuredOrg,
} from './structured-types.ts';

/** A property as plain strings: strings, numbers, and `name`/`@value` of nested objects. */
function strings(v: Json | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [normalizeLine(decodeEntities(v, ENTITY_OPTIONS))].filter(Boolean);
  if (typeof v === 'number') return [String(v)];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (isObject(v)) return strings(v['@value'] ?? v['name']);
  return [];
}
const first = (v: Json | undefined): string => strings(v)[0] ?? '';

function toAddress(v: Json): PostalAddressFields | null {
  if (typeof v === 'string') {
    const a = emptyAddress();
    a.streetAddress = normalizeLine(v);
    return a.streetAddress ? a : null;
  }
  if (!isObject(v)) return null;
  const a: PostalAddressFields = {
    streetAddress: first(v['streetAddress']),
    postOfficeBoxNumber: first(v['postOfficeBoxNumber']),
    addressLocality: first(v['addressLocality']),
    addressRegion: first(v['addressRegion']),
    postalCode: first(v['postalCode']),
    addressCountry: first(v['addressCountry']),
  };
  return Object.values(a).some(Boolean) ? a : null;
}

function addressesOf(o: JsonObject): PostalAddressFields[] {
  const out: PostalAddressFields[] = [];
  const add = (v: Json | undefined): void => {
    if (v === undefined || v === null) return;
    for (const item of Array.isArray(v) ? v : [v]) {
      const a = toAddress(item);
      if (a) out.push(a);
    }
  };
  add(o['address']);
  const loc = o['location'];
  for (const l of Array.isArray(loc) ? loc : loc ? [loc] : []) if (isObject(l)) add(l['address']);
  return out;
}

function emailsOf(o: JsonObject): string[] {
  const out = strings(o['email']);
  const cp = o['contactPoint'];
  for (const c of Array.isArray(cp) ? cp : cp ? [cp] : []) if (isObject(c)) out.push(...strings(c['email']));
  return out.map((e) => e.replace(/^mailto:/i, ''));
}

const NESTED_ORG_KEYS: Record<string, OrgRole> = {
  publisher: 'publisher',
  provider: 'publisher',
  sourceOrganization: 'publisher',
  copyrightHolder: 'publisher',
  author: 'nested',
  creator: 'nested',
  brand: 'nested',
  manufacturer: 'nested',
  seller: 'nested',
  offers: 'nested',
  parentOrganization: 'parent',
  subOrganization: 'nested',
  memberOf: 'nested',
  sponsor: 'nested',
  funder: 'nested',
  mainEntity: 'main',
  mainEntityOfPage: 'main',
  about: 'nested',
  isPartOf: 'nested',
};

/** Collects every organisation, WebSite and PostalAddress node of a set of JSON-LD blocks. */
export function readJsonLd(blocks: readonly string[]): StructuredData {
  const data: StructuredData = { orgs: [], siteNames: [], looseAddresses: [], emails: [] };
  const seen = new Set<JsonObject>();

  const visit = (v: Json | undefined, role: OrgRole, depth: number): void => {
    if (depth > 12 || v === undefined || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, role, depth + 1);
      return;
    }
    if (seen.has(v)) return;
    seen.add(v);
    const types = typesOf(v);
    if (types.some(isOrgType)) {
      const org: StructuredOrg = {
        name: first(v['name']) || first(v['alternateName']),
        legalName: first(v['legalName']),
        type: bareType(types.find(isOrgType)!),
        role,
        url: first(v['url']),
        emails: emailsOf(v),
        addresses: addressesOf(v),
      };
      data.orgs.push(org);
    } else if (types.some((t) => bareType(t) === 'website')) {
      const n = first(v['name']);
      if (n) data.siteNames.push(n);
      data.emails.push(...emailsOf(v));
    } else if (types.some(isAddressType)) {
      const a = toAddress(v);
      if (a) data.looseAddresses.push(a);
    } else {
      // Places, events, contact points and persons can still carry an email or an address.
      data.emails.push(...emailsOf(v));
      if (types.some((t) => ['place', 'contactpoint'].includes(bareType(t)))) data.looseAddresses.push(...addressesOf(v));
    }
    for (const [k, child] of Object.entries(v)) {
      if (k === 'address') continue;
      const childRole: OrgRole = k === '@graph' ? role : (NESTED_ORG_KEYS[k] ?? 'nested');
      visit(child, role === 'main' || k === '@graph' ? childRole : 'nested', depth + 1);
    }
  };

  for (const raw of blocks) visit(parseJsonLd(raw), 'main', 0);
  return data;
}
