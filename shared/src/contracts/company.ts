/** `analyze.company`: legal name, emails, postal addresses with provenance and confidence. */
import { z } from 'zod';
import { RequestIdSchema } from './common.ts';
import { SnapshotRefSchema, SnapshotSchema } from './snapshot.ts';

export const CompanyDataSchema = z.object({
  /** Legal company name; "" when none was found. */
  name: z
    .string()
    .describe(
      'The legal name of the company behind the site, as the page states it (JSON-LD legalName, copyright holder, imprint, registration or "a subsidiary of" line), else the organisation\'s name; "" when the page names none',
    ),
  /** The name people call it (og:site_name, else the organisation's fullest spelling in use, without legal form); "" when unknown. */
  brand_name: z
    .string()
    .describe(
      'The name people call the company or site: og:site_name, else the fullest spelling of the organisation\'s name the page really uses (title, logo alt text, structured data), without legal form; "" when the page names none',
    ),
  emails: z.array(z.string()),
  addresses: z.array(z.string()),
  /** Where the evidence came from: jsonld, microdata, footer, mailto, text, imprint, og, ... */
  sources: z.array(z.string()),
  /** In [0, 1]: how much independent evidence agrees (services/company/README.md gives the formula). */
  confidence: z.number().min(0).max(1),
  /** URLs of the pages the data was read from: the requested page first, then followed contact/imprint/terms/about pages. */
  pages: z.array(z.string()),
});
export type CompanyData = z.infer<typeof CompanyDataSchema>;

export const CompanyRequestSchema = z.object({
  requestId: RequestIdSchema,
  snapshot: SnapshotSchema,
  /** Snapshots of followed contact/imprint/terms/about pages (at most 2), when the client asked to follow them. */
  extraSnapshots: z.array(SnapshotSchema).max(2),
});
export type CompanyRequest = z.infer<typeof CompanyRequestSchema>;

/** `analyze.company` on the wire: each snapshot inline or by reference (at most 2 extra pages in all). */
export const CompanyMessageSchema = CompanyRequestSchema.extend({
  snapshot: SnapshotSchema.optional(),
  snapshotRef: SnapshotRefSchema.optional(),
  extraSnapshotRefs: z.array(SnapshotRefSchema).max(2).optional(),
})
  .refine((m) => (m.snapshot === undefined) !== (m.snapshotRef === undefined), 'exactly one of snapshot and snapshotRef')
  .refine((m) => m.extraSnapshots.length + (m.extraSnapshotRefs?.length ?? 0) <= 2, 'at most 2 extra pages');
export type CompanyMessage = z.infer<typeof CompanyMessageSchema>;

/**
 * The reply of `analyze.company`: the data, and the same-site contact/imprint/terms/about links it would
 * follow for what is missing (at most 2, best first; empty when the page already has a legal name and
 * contact data, or when `extraSnapshots` were given). The edge renders those only when the client asked
 * (`follow_links=true`) and asks again with their snapshots; `followUp` never reaches the client.
 */
export const CompanyReplySchema = z.object({
  data: CompanyDataSchema,
  followUp: z.array(z.string()).max(2),
});
export type CompanyReply = z.infer<typeof CompanyReplySchema>;
