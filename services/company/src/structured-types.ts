/** What JSON-LD and microdata/RDFa say about organisations, in one shape for both. */

export interface PostalAddressFields {
  streetAddress: string;
  postOfficeBoxNumber: string;
  addressLocality: string;
  addressRegion: string;
  postalCode: string;
  addressCountry: string;
}

/**
 * Where in the document the organisation sits: the page's own entity, a publisher, the parent the
 * page's own entity names (`parentOrganization`), or nested in something else.
 */
export type OrgRole = 'main' | 'publisher' | 'parent' | 'nested';

export interface StructuredOrg {
  name: string;
  legalName: string;
  /** Bare schema type ("Organization", "Restaurant"). */
  type: string;
  role: OrgRole;
  url: string;
  emails: string[];
  addresses: PostalAddressFields[];
}

export interface StructuredData {
  orgs: StructuredOrg[];
  /** Names of WebSite nodes: the site name, as og:site_name. */
  siteNames: string[];
  /** PostalAddress nodes not attached to an organisation (places, contact points). */
  looseAddresses: PostalAddressFields[];
  emails: string[];
}

const ORG_TYPES = new Set([
  'organization',
  'corporation',
  'localbusiness',
  'ngo',
  'airline',
  'consortium',
  'onlinebusiness',
  'onlinestore',
  'educationalorganization',
  'governmentorganization',
  'medicalorganization',
  'newsmediaorganization',
  'performinggroup',
  'sportsorganization',
  'library',
  'researchorganization',
  'workersunion',
  'fundingscheme',
  'project',
  'professionalservice',
  'legalservice',
  'attorney',
  'notary',
  'dentist',
  'physician',
  'restaurant',
  'bakery',
  'barorpub',
  'cafeorcoffeeshop',
  'fastfoodrestaurant',
  'winery',
  'brewery',
  'hotel',
  'motel',
  'resort',
  'bedandbreakfast',
  'hostel',
  'lodgingbusiness',
  'autodealer',
  'autorepair',
  'automotivebusiness',
  'realestateagent',
  'travelagency',
  'insuranceagency',
  'financialservice',
  'bankorcreditunion',
  'accountingservice',
  'employmentagency',
  'homeandconstructionbusiness',
  'plumber',
  'electrician',
  'roofingcontractor',
  'generalcontractor',
  'hvacbusiness',
  'locksmith',
  'movingcompany',
  'healthandbeautybusiness',
  'beautysalon',
  'hairsalon',
  'dayspa',
  'medicalclinic',
  'hospital',
  'pharmacy',
  'optician',
  'sportsactivitylocation',
  'healthclub',
  'entertainmentbusiness',
  'nightclub',
  'foodestablishment',
  'animalshelter',
  'childcare',
  'drycleaningorlaundry',
  'emergencyservice',
  'governmentoffice',
  'radiostation',
  'televisionstation',
  'recyclingcenter',
  'selfstorage',
  'shoppingcenter',
  'touristinformationcenter',
  'internetcafe',
  'school',
  'collegeoruniversity',
  'store',
]);

/** "http://schema.org/LocalBusiness" / "schema:Store" -> "localbusiness" / "store". */
export function bareType(t: string): string {
  return t.replace(/^.*[/#:]/, '').toLowerCase();
}

export function isOrgType(t: string): boolean {
  const b = bareType(t);
  return ORG_TYPES.has(b) || /(organization|business|store|shop|service|agency|dealer|restaurant|clinic)$/.test(b);
}

export function isAddressType(t: string): boolean {
  return bareType(t) === 'postaladdress';
}

export const emptyAddress = (): PostalAddressFields => ({
  streetAddress: '',
  postOfficeBoxNumber: '',
  addressLocality: '',
  addressRegion: '',
  postalCode: '',
  addressCountry: '',
});
