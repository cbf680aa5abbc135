/** `analyze.brand` and the seed's brand field groups. */
import { z } from 'zod';
import { RequestIdSchema } from './common.ts';
import { SnapshotRefSchema, SnapshotSchema } from './snapshot.ts';

export const ColorEntrySchema = z.object({
  /** `rgb(r,g,b)`, no spaces. */
  color: z.string().regex(/^rgb\(\d{1,3},\d{1,3},\d{1,3}\)$/),
  /** `#RRGGBB`, upper case. */
  hex: z.string().regex(/^#[0-9A-F]{6}$/),
  name: z.string().min(1),
  percentage: z.number().int().min(0).max(100),
  source: z.enum(['logo', 'screenshot']),
});
export type ColorEntry = z.infer<typeof ColorEntrySchema>;

const HexColor = z.string().regex(/^#[0-9A-F]{6}$/);

export const ColorsSchema = z.object({
  brand_colors: z.array(ColorEntrySchema),
  screenshot_colors: z.array(ColorEntrySchema),
  code_colors: z.object({
    css: z.array(HexColor),
    html: z.array(HexColor),
    javascript: z.array(HexColor),
  }),
});
export type Colors = z.infer<typeof ColorsSchema>;

export const FontsSchema = z.object({
  families: z.array(z.string()),
  google_fonts: z.array(z.string()),
  typekit: z.array(z.string()),
});
export type Fonts = z.infer<typeof FontsSchema>;

export const LogoSchema = z.object({
  /** Absolute URL, or a `data:image/svg+xml;base64,...` URI for an inline SVG logo. */
  url: z.string(),
  /** Strongest signal: jsonld, header, og, manifest, apple-touch-icon, svg, img, favicon. */
  source: z.string(),
  score: z.number().min(0).max(1),
  isSvg: z.boolean(),
});
export type Logo = z.infer<typeof LogoSchema>;

export const LogosSchema = z.object({
  /** Null only when the page has no logo candidate at all (not even an icon). */
  primary: LogoSchema.nullable(),
  secondary: z.array(LogoSchema),
  favicon_url: z.string().nullable(),
  icon_url: z.string().nullable(),
  apple_touch_icon: z.string().nullable(),
});
export type Logos = z.infer<typeof LogosSchema>;

export const ImagesSchema = z.object({
  /** Absolute URL, or "" when the page declares none. */
  og_image: z.string(),
  twitter_image: z.string(),
  assets: z.array(z.string()),
  /** "" when no screenshot was stored. */
  screenshot_url: z.string(),
  screenshot_colors: z.array(ColorEntrySchema),
});
export type Images = z.infer<typeof ImagesSchema>;

const SocialUrl = z.string().nullable();
export const SocialLinksSchema = z.object({
  twitter: SocialUrl,
  linkedin: SocialUrl,
  github: SocialUrl,
  facebook: SocialUrl,
  instagram: SocialUrl,
  youtube: SocialUrl,
});
export type SocialLinks = z.infer<typeof SocialLinksSchema>;

export const BrandDataSchema = z.object({
  colors: ColorsSchema,
  fonts: FontsSchema,
  logos: LogosSchema,
  images: ImagesSchema,
  social_links: SocialLinksSchema,
});
export type BrandData = z.infer<typeof BrandDataSchema>;

export const BrandOptionsSchema = z.object({
  /** 2..12, or null: no screenshot colors (the arrays are then empty). */
  screenshotColors: z.number().int().min(2).max(12).nullable(),
  css: z.boolean(),
  html: z.boolean(),
  javascript: z.boolean(),
});
export type BrandOptions = z.infer<typeof BrandOptionsSchema>;

export const BrandRequestSchema = z.object({
  requestId: RequestIdSchema,
  snapshot: SnapshotSchema,
  /** Public URL of the stored screenshot, "" when none. */
  screenshotUrl: z.string(),
  options: BrandOptionsSchema,
});
export type BrandRequest = z.infer<typeof BrandRequestSchema>;

/**
 * `analyze.brand` on the wire: the snapshot inline or by reference (exactly one); by reference, its
 * visuals may be stored apart (`visualsRef`, RenderResult.visualsRef).
 */
export const BrandMessageSchema = BrandRequestSchema.extend({
  snapshot: SnapshotSchema.optional(),
  snapshotRef: SnapshotRefSchema.optional(),
  visualsRef: SnapshotRefSchema.optional(),
})
  .refine((m) => (m.snapshot === undefined) !== (m.snapshotRef === undefined), 'exactly one of snapshot and snapshotRef')
  .refine((m) => m.visualsRef === undefined || m.snapshotRef !== undefined, 'visualsRef only with snapshotRef');
export type BrandMessage = z.infer<typeof BrandMessageSchema>;
