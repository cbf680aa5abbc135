/**
 * Reads schema.org organisations and postal addresses written as microdata (itemscope/itemprop) or
 * RDFa (typeof/property) in the page HTML: the items and their properties come from the shared
 * reader (@enrich/shared/page, microdata.ts); what they mean for a company is read here.
 */
import type { HTMLElement } from 'node-html-parser';
import { enclosingItemScope, isItemScope, itemType, mailtoAddresses, ownItemProps } from '@enrich/shared/page';
import { normalizeLine } from './text.ts';
import { bareType, emptyAddress, isAddressType, isOrgType, type PostalAddressFields, type StructuredData, type StructuredOrg } from './structured-types.ts';

/** `scope`'s own properties with schema.org names bare and lower-cased ("schema:email" -> "email"). */
const ownProps = (scope: HTMLElement): Array<{ name: string; el: HTMLElement }> => ownItemProps(scope).map(({ name, el }) => ({ name: bareType(name), el }));

function propValue(el: HTMLElement): string {
  const content = el.getAttribute('content');
  if (content !== undefined) return normalizeLine(content);
  const tag = el.tagName?.toLowerCase();
  if (tag === 'a' || tag === 'link') {
    const href = el.getAttribute('href') ?? '';
    if (/^mailto:/i.test(href)) return mailtoAddresses(href)[0] ?? '';
    if (tag === 'link') return href;
  }
  if (tag === 'meta') return '';
  return normalizeLine(el.structuredText);
}

function addressFrom(scope: HTMLElement): PostalAddressFields {
  const a = emptyAddress();
  // Property names arrive lower-cased ("streetaddress"); the fields are camelCase.
  const fields = new Map(Object.keys(a).map((k) => [k.toLowerCase(), k as keyof PostalAddressFields]));
  for (const { name, el } of ownProps(scope)) {
    const field = fields.get(name);
    if (field && !a[field]) a[field] = propValue(el);
  }
  return a;
}

export function readMicrodata(root: HTMLElement): StructuredData {
  const data: StructuredData = { orgs: [], siteNames: [], looseAddresses: [], emails: [] };
  const scopes = root.querySelectorAll('[itemscope], [typeof]');
  const claimed = new Set<HTMLElement>();
  for (const scope of scopes) {
    const type = itemType(scope);
    if (!type || !isOrgType(type)) continue;
    const org: StructuredOrg = { name: '', legalName: '', type: bareType(type), role: 'main', url: '', emails: [], addresses: [] };
    for (const { name, el } of ownProps(scope)) {
      if (name === 'name' && !org.name) org.name = propValue(el);
      else if (name === 'legalname' && !org.legalName) org.legalName = propValue(el);
      else if (name === 'url' && !org.url) org.url = el.getAttribute('href') ?? propValue(el);
      else if (name === 'email') org.emails.push(propValue(el));
      else if (name === 'address') {
        if (isItemScope(el)) {
          claimed.add(el);
          org.addresses.push(addressFrom(el));
        } else {
          const a = emptyAddress();
          a.streetAddress = propValue(el);
          if (a.streetAddress) org.addresses.push(a);
        }
      }
    }
    // An organisation inside another item (a review's author, a product's brand) is not the page's owner.
    const parent = enclosingItemScope(scope);
    if (parent && !/^(?:webpage|website|aboutpage|contactpage|itempage|collectionpage)?$/.test(bareType(itemType(parent)))) org.role = 'nested';
    data.orgs.push(org);
  }
  for (const scope of scopes) {
    if (claimed.has(scope) || !isAddressType(itemType(scope))) continue;
    data.looseAddresses.push(addressFrom(scope));
  }
  for (const el of root.querySelectorAll('[itemprop~=email], [property~=email], [property~="schema:email"]')) {
    const v = propValue(el);
    if (v) data.emails.push(v);
  }
  return data;
}
