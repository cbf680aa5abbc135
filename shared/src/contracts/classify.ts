/** `analyze.classify`: IAB Content Taxonomy 1.0 category and a plain-text description. */
import { z } from 'zod';
import { RequestIdSchema } from './common.ts';
import { SnapshotRefSchema, SnapshotSchema } from './snapshot.ts';

export const ClassificationSchema = z.object({
  url: z.string(),
  /** Tier-2 id (`IAB19-6`) where the evidence supports one, else the tier-1 id (`IAB19`). */
  iab_id: z.string().regex(/^IAB\d+(-\d+)?$/),
  iab_parent_id: z.string().regex(/^IAB\d+$/),
  /** Official tier-1 name. */
  category: z.string(),
  /** Official tier-2 name, or "" when iab_id is a tier-1 id. */
  subcategory: z.string(),
  /** One or two plain sentences, at most 300 characters, never empty. */
  description: z.string().min(1).max(300),
});
export type Classification = z.infer<typeof ClassificationSchema>;

export const ClassifyRequestSchema = z.object({
  requestId: RequestIdSchema,
  snapshot: SnapshotSchema,
});
export type ClassifyRequest = z.infer<typeof ClassifyRequestSchema>;

/** `analyze.classify` on the wire: the snapshot inline or by reference (exactly one). */
export const ClassifyMessageSchema = ClassifyRequestSchema.extend({ snapshot: SnapshotSchema.optional(), snapshotRef: SnapshotRefSchema.optional() }).refine(
  (m) => (m.snapshot === undefined) !== (m.snapshotRef === undefined),
  'exactly one of snapshot and snapshotRef',
);
export type ClassifyMessage = z.infer<typeof ClassifyMessageSchema>;
