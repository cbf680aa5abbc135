/** The five data endpoints: contract schemas, credit cost key and orchestration, side by side. */
import type { FastifyInstance } from 'fastify';
import {
  BrandQuerySchema,
  BrandResponseDataSchema,
  ClassificationSchema,
  ClassifyQuerySchema,
  CompanyQuerySchema,
  CompanyResponseDataSchema,
  EnrichDataSchema,
  EnrichQuerySchema,
  ScreenshotDataSchema,
  ScreenshotQuerySchema,
} from '@enrich/shared/contracts';
import type { EdgeDeps } from '../deps.ts';
import { runBrand, runClassify, runCompany, runEnrich, runScreenshot } from '../orchestrate.ts';
import { registerPaidRoute } from './paid.ts';

export const PAID_ROUTES = [
  {
    path: '/enrich',
    endpoint: 'enrich',
    query: EnrichQuerySchema,
    data: EnrichDataSchema,
    summary: 'Brand, company and classification from one page load',
    run: runEnrich,
  },
  {
    path: '/brand',
    endpoint: 'brand',
    query: BrandQuerySchema,
    data: BrandResponseDataSchema,
    summary: 'Colors, logos, fonts, images and social links',
    run: runBrand,
  },
  {
    path: '/company',
    endpoint: 'company',
    query: CompanyQuerySchema,
    data: CompanyResponseDataSchema,
    summary: 'Legal company name, contact emails, postal addresses',
    run: runCompany,
  },
  {
    path: '/classify',
    endpoint: 'classify',
    query: ClassifyQuerySchema,
    data: ClassificationSchema,
    summary: 'IAB Content Taxonomy 1.0 category and a description',
    run: runClassify,
  },
  {
    path: '/screenshot',
    endpoint: 'screenshot',
    query: ScreenshotQuerySchema,
    data: ScreenshotDataSchema,
    summary: 'Capture, store and link a screenshot',
    run: runScreenshot,
  },
] as const;

export function registerDataRoutes(app: FastifyInstance, deps: EdgeDeps): void {
  registerPaidRoute(app, deps, PAID_ROUTES[0]);
  registerPaidRoute(app, deps, PAID_ROUTES[1]);
  registerPaidRoute(app, deps, PAID_ROUTES[2]);
  registerPaidRoute(app, deps, PAID_ROUTES[3]);
  registerPaidRoute(app, deps, PAID_ROUTES[4]);
}
