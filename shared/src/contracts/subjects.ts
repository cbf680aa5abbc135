/**
 * Every NATS subject with its request and reply contract: one table, used by `serve` and `request`
 * so a subject can never be served or called with the wrong shape.
 */
import type { z } from 'zod';
import { BrandDataSchema, BrandMessageSchema } from './brand.ts';
import { ClassificationSchema, ClassifyMessageSchema } from './classify.ts';
import { CompanyMessageSchema, CompanyReplySchema } from './company.ts';
import { RenderRequestSchema, RenderResultSchema } from './render.ts';

export interface Endpoint<Req extends z.ZodType, Rep extends z.ZodType> {
  subject: string;
  /** Queue group: every copy of a service shares the subject's load. */
  queue: string;
  request: Req;
  reply: Rep;
}

function endpoint<Req extends z.ZodType, Rep extends z.ZodType>(subject: string, queue: string, request: Req, reply: Rep): Endpoint<Req, Rep> {
  return { subject, queue, request, reply };
}

export const RENDER_PAGE = endpoint('render.page', 'renderer', RenderRequestSchema, RenderResultSchema);
export const ANALYZE_BRAND = endpoint('analyze.brand', 'brand', BrandMessageSchema, BrandDataSchema);
export const ANALYZE_COMPANY = endpoint('analyze.company', 'company', CompanyMessageSchema, CompanyReplySchema);
export const ANALYZE_CLASSIFY = endpoint('analyze.classify', 'classifier', ClassifyMessageSchema, ClassificationSchema);

/** Every service also answers `<subject>.ping` (no queue group) so the edge's /ready can count instances. */
export const pingSubject = (subject: string): string => `${subject}.ping`;
