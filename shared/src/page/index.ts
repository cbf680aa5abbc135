/** Readers of page facts shared by the analyzers and the renderer: JSON-LD, meta, microdata, brand names. */
export {
  isJsonObject, jsonLdTypes, organizationFacts, parseJsonLd, parseJsonLdBlocks, scanJsonLdStrings,
  type Json, type JsonObject, type OrganizationFacts, type ScanOptions,
} from './jsonld.ts';
export { decodeEntities, type DecodeOptions } from './entities.ts';
export { absoluteUrl, domainLabel, metaContent, metaContents, metaHttpEquiv } from './meta.ts';
export { brandNames, compact, mentionsBrand } from './brand-name.ts';
export {
  documentBase, enclosingItemScope, isItemScope, itemPropNames, itemType, microdataItemTypes, microdataLogos, ownItemProps,
  type ItemElement,
} from './microdata.ts';
export { toPlainText } from './plain-text.ts';
