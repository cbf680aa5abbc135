/**
 * The snapshot readers shared by the analyzers and the renderer: the one JSON-LD parser, the one HTML
 * entity decoder, meta tags, microdata, plain text, brand names, links. The map is in README.md here.
 */
export {
  isJsonObject,
  jsonLdTypes,
  organizationFacts,
  parseJsonLd,
  parseJsonLdBlocks,
  scanJsonLdStrings,
  type Json,
  type JsonObject,
  type OrganizationFacts,
  type ScanOptions,
} from './jsonld.ts';
export { decodeEntities, type DecodeOptions } from './entities.ts';
export { domainLabel, isSameSite, registrableDomain } from './domain.ts';
export { absoluteUrl, metaContent, metaContentFromHtml, metaContents, metaHttpEquiv } from './meta.ts';
export { brandNames, compact, mentionsBrand } from './brand-name.ts';
export {
  documentBase,
  enclosingItemScope,
  isItemScope,
  itemPropNames,
  itemType,
  microdataItemTypes,
  microdataLogos,
  ownItemProps,
  type ItemElement,
} from './microdata.ts';
export { toPlainText } from './plain-text.ts';
export { hasRelToken, isExternalLink, isHomeLink, isSiteChrome, mailtoAddresses, sameSitePageLinks, withoutFragment } from './links.ts';
