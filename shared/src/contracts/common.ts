import { z } from 'zod';

/** A rectangle in CSS pixels, relative to the top-left corner of the document (not the viewport). */
export const BoxSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
});
export type Box = z.infer<typeof BoxSchema>;

/** The landmark an element sits in, from its closest ancestor (header/nav/main/aside/footer, or ARIA roles). */
export const RegionSchema = z.enum(['header', 'nav', 'main', 'aside', 'footer', 'other']);
export type Region = z.infer<typeof RegionSchema>;

export const ScreenshotFormatSchema = z.enum(['jpeg', 'png', 'webp']);
export type ScreenshotFormat = z.infer<typeof ScreenshotFormatSchema>;

export const ViewportSchema = z.object({
  width: z.number().int().min(320).max(5000),
  height: z.number().int().min(320).max(5000),
});
export type Viewport = z.infer<typeof ViewportSchema>;

/** Base64 of a PNG image with its pixel size. */
export const PngImageSchema = z.object({
  png: z.base64(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type PngImage = z.infer<typeof PngImageSchema>;

export const RequestIdSchema = z.uuid();
