/** `render.page`: the renderer loads a URL once and returns what the request asks for. */
import { z } from 'zod';
import { RequestIdSchema, ScreenshotFormatSchema, ViewportSchema } from './common.ts';
import { SnapshotRefSchema, SnapshotSchema } from './snapshot.ts';

export const RenderRequestSchema = z.object({
  requestId: RequestIdSchema,
  /** Absolute http(s) URL, already validated by the edge (the renderer re-checks it: SSRF guard). */
  url: z.string().max(2048),
  viewport: ViewportSchema,
  /** Capture and store a screenshot; null: none. */
  screenshot: z.object({ format: ScreenshotFormatSchema, fullPage: z.boolean() }).nullable(),
  /** Collect the page snapshot (false for `/screenshot`, which only needs the image). */
  snapshot: z.boolean(),
  /** Include script texts in the snapshot (only when JavaScript colors were asked for). */
  scripts: z.boolean(),
  /** Rasterise logo candidates and the screenshot thumbnail (brand analysis needs them). */
  visuals: z.boolean(),
  /**
   * With `visuals`: also the thumbnail of the capture, which only the brand analyzer's
   * `screenshotColors` reads (decoding and scaling the capture costs ~20 ms of CPU). Absent: true.
   */
  thumbnail: z.boolean().optional(),
  /**
   * With `snapshot`: collect the page's elements (anchors, images, inline SVGs), which the company
   * and brand analyzers read and the classifier does not; without them those lists are empty. `visuals`
   * needs them (the logo candidates are elements). Absent: true.
   */
  elements: z.boolean().optional(),
  /**
   * With `snapshot`: collect the computed colours and fonts and the stylesheet texts, which only the
   * brand analyzer reads; without them `styles` and `stylesheets` are empty (the renderer then keeps no
   * stylesheet bodies off the wire). Absent: true.
   */
  styles: z.boolean().optional(),
  /**
   * Store the snapshot (shared/src/nats/snapshot-store.ts) and answer `snapshotRef` instead of the
   * snapshot itself: the edge passes the reference on to the analyzers. Absent: inline.
   */
  snapshotByRef: z.boolean().optional(),
  /**
   * With `snapshotByRef`: an inbox (`_INBOX.…`) to which the renderer publishes `{ snapshotRef }`
   * (EarlySnapshotSchema) as soon as the page is read, before it is captured, so the analyzers that
   * need no visuals can start while the capture and the logo rasters run. That stored object is the
   * snapshot without its visuals; the reply names it again as `snapshotRef`, with `visualsRef`.
   * When the visuals are ready before the capture ends, `{ snapshotRef, visualsRef }` follows on the
   * same inbox, and the reply names those two again.
   */
  earlySnapshotTo: z
    .string()
    .max(200)
    .regex(/^_INBOX\.[A-Za-z0-9_.-]+$/, 'an inbox subject (_INBOX.…)')
    .optional(),
});
export type RenderRequest = z.infer<typeof RenderRequestSchema>;

export const StoredScreenshotSchema = z.object({
  /** Public URL that serves the image. */
  url: z.url(),
  format: ScreenshotFormatSchema,
  /** Pixel size of the stored image (full_page: the page's height). */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  fullPage: z.boolean(),
  /** True when the page was taller than the capture's pixel budget allows and was cut (full width kept). Absent from older renderers: false. */
  clipped: z.boolean().optional(),
  /** ISO 8601 UTC with milliseconds. */
  capturedAt: z.iso.datetime({ precision: 3 }),
  bytes: z.number().int().nonnegative(),
});
export type StoredScreenshot = z.infer<typeof StoredScreenshotSchema>;

export const RenderResultSchema = z.object({
  requestedUrl: z.string(),
  finalUrl: z.string(),
  status: z.number().int(),
  screenshot: StoredScreenshotSchema.nullable(),
  snapshot: SnapshotSchema.nullable(),
  /** With `snapshotByRef`: where the snapshot is (then `snapshot` is null). Inline if the store failed. */
  snapshotRef: SnapshotRefSchema.nullable().optional(),
  /** With `earlySnapshotTo`: the visuals stored apart (SnapshotVisualsSchema), to lay over `snapshotRef`'s object. */
  visualsRef: SnapshotRefSchema.nullable().optional(),
  timings: z.object({
    queuedMs: z.number().nonnegative(),
    navigationMs: z.number().nonnegative(),
    settleMs: z.number().nonnegative(),
    collectMs: z.number().nonnegative(),
    screenshotMs: z.number().nonnegative(),
    totalMs: z.number().nonnegative(),
  }),
});
export type RenderResult = z.infer<typeof RenderResultSchema>;
