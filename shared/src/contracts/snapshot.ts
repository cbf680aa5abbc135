/**
 * The page snapshot: raw facts collected in the live page by the renderer, after JavaScript ran.
 * Analyzers interpret it and never fetch anything themselves. Every list and text has a bound
 * (SNAPSHOT_LIMITS), enforced by the renderer while collecting and checked again on receipt, so
 * one huge page cannot exhaust a service's memory.
 */
import { z } from 'zod';
import { BoxSchema, PngImageSchema, RegionSchema } from './common.ts';

/** The object-store bucket of snapshots passed by reference (shared/src/nats/snapshot-store.ts). */
export const SNAPSHOT_REF_BUCKET = 'enrich-snapshots';
/** A stored snapshot: `enrich-snapshots/<uuid>`. */
export const SnapshotRefSchema = z
  .string()
  .regex(/^enrich-snapshots\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a snapshot reference (enrich-snapshots/<uuid>)');

export const SNAPSHOT_LIMITS = {
  htmlChars: 8_000_000,
  stylesheets: 200,
  stylesheetChars: 2_000_000, // per sheet
  stylesheetsTotalChars: 6_000_000,
  scripts: 200,
  scriptChars: 2_000_000, // per script
  scriptsTotalChars: 6_000_000,
  metaTags: 500,
  linkTags: 500,
  jsonLdBlocks: 100,
  jsonLdChars: 500_000, // per block
  anchors: 3_000,
  anchorTextChars: 300,
  images: 1_000,
  svgs: 200,
  svgMarkupChars: 100_000, // per inline SVG
  visibleTextChars: 200_000,
  regionTextChars: 50_000, // header / footer text
  headings: 300,
  navLabels: 300,
  colorSamples: 500,
  fontSamples: 200,
  resources: 2_000,
  logoRasters: 6,
  manifestIcons: 30,
  urlChars: 8_192,
} as const;

const L = SNAPSHOT_LIMITS;
const Url = z.string().max(L.urlChars);

export const MetaTagSchema = z.object({
  name: z.string().nullable(),
  property: z.string().nullable(),
  httpEquiv: z.string().nullable(),
  itemprop: z.string().nullable(),
  content: z.string().max(L.urlChars),
});
export type MetaTag = z.infer<typeof MetaTagSchema>;

/** `<link>` tags; `href` absolute. */
export const LinkTagSchema = z.object({
  rel: z.string(),
  href: Url,
  type: z.string().nullable(),
  sizes: z.string().nullable(),
  media: z.string().nullable(),
});
export type LinkTag = z.infer<typeof LinkTagSchema>;

/** An external or inline stylesheet; `url` null for `<style>` blocks. */
export const SourceTextSchema = z.object({
  url: Url.nullable(),
  text: z.string(),
});
export type SourceText = z.infer<typeof SourceTextSchema>;

/** A link: an `<a href>`, or an image map's `<area href>` (text: its alt; no box). */
export const AnchorSchema = z.object({
  /** Absolute for http(s); `mailto:`/`tel:` kept as written. */
  href: Url,
  text: z.string().max(L.anchorTextChars),
  title: z.string().nullable(),
  ariaLabel: z.string().nullable(),
  rel: z.string().nullable(),
  region: RegionSchema,
  box: BoxSchema.nullable(),
  visible: z.boolean(),
});
export type Anchor = z.infer<typeof AnchorSchema>;

/** Attributes and placement shared by images and inline SVGs. */
const ElementFacts = {
  /** Position in document order among elements of its kind; referenced as `img:<index>` / `svg:<index>`. */
  index: z.number().int().nonnegative(),
  id: z.string().nullable(),
  className: z.string().nullable(),
  title: z.string().nullable(),
  ariaLabel: z.string().nullable(),
  box: BoxSchema.nullable(),
  visible: z.boolean(),
  region: RegionSchema,
  /** Absolute href of the closest enclosing `<a>`, if any. */
  linkHref: Url.nullable(),
  /** id/class/alt of up to three ancestors, joined: "site-logo header-brand", for logo signals. */
  ancestorHints: z.string().max(500),
};

export const ImageSchema = z.object({
  ...ElementFacts,
  /** Absolute URL (currentSrc when the browser picked one from srcset), or a data: URI up to urlChars. */
  src: Url,
  alt: z.string().nullable(),
  naturalWidth: z.number().int().nonnegative(),
  naturalHeight: z.number().int().nonnegative(),
  /** `img` element, `picture` source, or a CSS background-image on an element. */
  kind: z.enum(['img', 'background']),
});
export type Image = z.infer<typeof ImageSchema>;

export const SvgSchema = z.object({
  ...ElementFacts,
  /** outerHTML with `<use>` references inlined where they resolve in the page; cut at svgMarkupChars. */
  markup: z.string().max(L.svgMarkupChars),
  truncated: z.boolean(),
});
export type Svg = z.infer<typeof SvgSchema>;

export const HeadingSchema = z.object({ level: z.number().int().min(1).max(6), text: z.string().max(1000) });

/** Where a computed color or font was seen, for weighting accents above body text. */
export const StyleRoleSchema = z.enum(['button', 'link', 'heading', 'header', 'nav', 'footer', 'body', 'other']);
export type StyleRole = z.infer<typeof StyleRoleSchema>;

/** A computed color of visible elements, summed over elements with the same value/property/role. */
export const ColorSampleSchema = z.object({
  /** As computed by the browser: `rgb(r, g, b)` or `rgba(r, g, b, a)`. */
  value: z.string().max(100),
  property: z.enum(['color', 'background-color', 'border-color', 'fill', 'stroke']),
  role: StyleRoleSchema,
  /** Sum of the on-screen area (CSS px²) of the elements, text area for `color`. */
  area: z.number().nonnegative(),
  count: z.number().int().positive(),
});
export type ColorSample = z.infer<typeof ColorSampleSchema>;

/** A computed `font-family` stack of visible text, weighted by the area of the text that uses it. */
export const FontSampleSchema = z.object({
  family: z.string().max(500),
  role: StyleRoleSchema,
  area: z.number().nonnegative(),
  count: z.number().int().positive(),
});
export type FontSample = z.infer<typeof FontSampleSchema>;

export const ResourceSchema = z.object({
  url: Url,
  /** Playwright's resourceType: document, stylesheet, image, font, script, xhr, fetch, ... */
  type: z.string(),
  /** HTTP status, null when blocked or failed. */
  status: z.number().int().nullable(),
});
export type Resource = z.infer<typeof ResourceSchema>;

/** An element screenshot of a logo candidate; `ref` names the element (`img:3`, `svg:0`) or `url:<absolute url>`. */
export const LogoRasterSchema = PngImageSchema.extend({ ref: z.string().max(L.urlChars + 4) });
export type LogoRaster = z.infer<typeof LogoRasterSchema>;

/** An icon of the page's linked web app manifest, `src` absolute (resolved against the manifest URL). */
export const ManifestIconSchema = z.object({
  src: Url,
  sizes: z.string().max(200).nullable(),
  type: z.string().max(200).nullable(),
  purpose: z.string().max(200).nullable(),
});
export type ManifestIcon = z.infer<typeof ManifestIconSchema>;

/**
 * Icons the renderer looked up beyond the page's own tags, through the page's browser context (so
 * through the egress proxy): the linked manifest's icons, and `/favicon.ico` when the page declares
 * no icon and the site answers it with an image. Absent from snapshots made without a browser.
 */
export const SiteIconLookupSchema = z.object({
  manifest: z.array(ManifestIconSchema).max(L.manifestIcons),
  favicon: Url.nullable(),
});
export type SiteIconLookup = z.infer<typeof SiteIconLookupSchema>;

export const SnapshotSchema = z.object({
  requestedUrl: Url,
  /** After redirects. */
  finalUrl: Url,
  /** HTTP status of the main document. */
  status: z.number().int(),
  title: z.string().max(2000),
  /** `<html lang>`, or null. */
  lang: z.string().max(50).nullable(),
  /** `document.documentElement.outerHTML` after JavaScript (open shadow roots written in as `<template shadowrootmode="open">`), cut at htmlChars. */
  html: z.string().max(L.htmlChars),
  meta: z.array(MetaTagSchema).max(L.metaTags),
  links: z.array(LinkTagSchema).max(L.linkTags),
  /** Raw texts of `<script type="application/ld+json">`, unparsed (pages often hold invalid JSON). */
  jsonLd: z.array(z.string().max(L.jsonLdChars)).max(L.jsonLdBlocks),
  stylesheets: z.array(SourceTextSchema).max(L.stylesheets),
  /** Only when the request asked for scripts (javascript colors); else empty. */
  scripts: z.array(SourceTextSchema).max(L.scripts),
  anchors: z.array(AnchorSchema).max(L.anchors),
  images: z.array(ImageSchema).max(L.images),
  svgs: z.array(SvgSchema).max(L.svgs),
  text: z.object({
    /** `document.body.innerText`, then the text of each open shadow root, cut at visibleTextChars. */
    visible: z.string().max(L.visibleTextChars),
    headings: z.array(HeadingSchema).max(L.headings),
    /** Labels of links inside nav/header menus. */
    nav: z.array(z.string().max(200)).max(L.navLabels),
    header: z.string().max(L.regionTextChars),
    footer: z.string().max(L.regionTextChars),
  }),
  styles: z.object({
    colors: z.array(ColorSampleSchema).max(L.colorSamples),
    fonts: z.array(FontSampleSchema).max(L.fontSamples),
    /** Custom properties declared on :root / html / body, as computed (`--brand` -> `#ff5a00`). */
    rootVariables: z.record(z.string(), z.string().max(500)),
  }),
  resources: z.array(ResourceSchema).max(L.resources),
  /** The viewport screenshot downscaled to at most 256 px wide, for color analysis; null if not asked. */
  thumbnail: PngImageSchema.nullable(),
  /** Element screenshots of the top logo candidates by the shared ranking (`@enrich/shared/logos`), best first; empty if not asked. */
  logoRasters: z.array(LogoRasterSchema).max(L.logoRasters),
  siteIcons: SiteIconLookupSchema.optional(),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }),
  /** Full scrollable size of the document in CSS px. */
  documentSize: z.object({ width: z.number().int(), height: z.number().int() }),
  /** Names of the parts that hit a limit and were cut, e.g. ["html", "anchors"]. */
  truncated: z.array(z.string()),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/**
 * What a snapshot gains after its page part was handed out: what only the brand analyzer reads (the
 * computed styles, the stylesheet and script texts, collected after the hand-out), the visuals, and
 * the network log and cut list as they stand at the end. Stored apart (`visualsRef`) when the page
 * part was handed out early (RenderRequest.earlySnapshotTo); the snapshot is the page part with these
 * fields laid over it. The page part's own `styles`, `stylesheets` and `scripts` are then empty, so
 * the company analyzer and the classifier never read (nor decompress and parse) what they do not use.
 */
export const SnapshotVisualsSchema = SnapshotSchema.pick({
  styles: true,
  stylesheets: true,
  scripts: true,
  thumbnail: true,
  logoRasters: true,
  siteIcons: true,
  resources: true,
  truncated: true,
});
export type SnapshotVisuals = z.infer<typeof SnapshotVisualsSchema>;

/**
 * Published to RenderRequest.earlySnapshotTo once the page part of the snapshot is stored; then a
 * second time, with `visualsRef`, when the visuals were ready before the capture ended (the logo
 * raster begun from its file, no thumbnail asked for), so the brand analyzer can start while the
 * page is captured. A reply naming the same two references confirms them.
 */
export const EarlySnapshotSchema = z.object({ snapshotRef: SnapshotRefSchema, visualsRef: SnapshotRefSchema.optional() });
export type EarlySnapshot = z.infer<typeof EarlySnapshotSchema>;
