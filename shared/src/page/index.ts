/** Readers of page facts shared by the analyzers and the renderer: JSON-LD, meta, microdata, brand names. */
export { organizationFacts, type OrganizationFacts } from './jsonld.ts';
export { absoluteUrl, domainLabel, metaContent } from './meta.ts';
export { brandNames, compact, mentionsBrand } from './brand-name.ts';
export { documentBase, microdataLogos } from './microdata.ts';
