/**
 * Examples for /openapi.json: one answer of the real stack for the demo site (deploy/local/demo-site,
 * a coffee roaster), moved to a public-looking host. Typed with the contract's types, and checked
 * against the zod schemas by openapi.test.ts and by the linter, so they cannot drift from the API.
 */
import type { BrandResponseData, Classification, CompanyResponseData, EnrichData, ErrorEnvelope, PaidEndpoint, ScreenshotData } from '@enrich/shared/contracts';

const SITE = 'https://northwind.example/';
const ASSET = 'https://api.enrich.example/assets/screenshots/2026-11-23/fece8956-bb7e-445e-a269-49724a6faa04.jpeg';
export const EXAMPLE_REQUEST_ID = 'fece8956-bb7e-445e-a269-49724a6faa04';
const meta = (durationMs: number) => ({ requestId: EXAMPLE_REQUEST_ID, durationMs });

const screenshotColors = [
  { color: 'rgb(255,252,245)', hex: '#FFFCF5', name: 'Quarter Pearl Lusta', percentage: 39, source: 'screenshot' as const },
  { color: 'rgb(255,241,230)', hex: '#FFF1E6', name: 'Serenade', percentage: 37, source: 'screenshot' as const },
  { color: 'rgb(29,25,22)', hex: '#1D1916', name: 'Eternity', percentage: 20, source: 'screenshot' as const },
  { color: 'rgb(189,187,181)', hex: '#BDBBB5', name: 'Tea', percentage: 4, source: 'screenshot' as const },
];

const brand: BrandResponseData = {
  domain: 'northwind.example',
  url: SITE,
  colors: {
    brand_colors: [
      { color: 'rgb(194,65,12)', hex: '#C2410C', name: 'Tia Maria', percentage: 96, source: 'logo' },
      { color: 'rgb(85,82,80)', hex: '#555250', name: 'Fuscous Gray', percentage: 4, source: 'logo' },
    ],
    screenshot_colors: screenshotColors,
    code_colors: { css: ['#1C1917', '#C2410C', '#FFFBF5', '#FFF1E6'], html: [], javascript: [] },
  },
  fonts: { families: ['Georgia', 'Arial'], google_fonts: [], typekit: [] },
  logos: {
    primary: { url: `${SITE}logo.svg`, source: 'jsonld', score: 1, isSvg: true },
    secondary: [{ url: `${SITE}favicon.svg`, source: 'favicon', score: 0.16, isSvg: true }],
    favicon_url: `${SITE}favicon.svg`,
    icon_url: `${SITE}favicon.svg`,
    apple_touch_icon: null,
  },
  images: {
    og_image: `${SITE}hero.svg`,
    twitter_image: '',
    assets: [`${SITE}hero.svg`, `${SITE}logo.svg`],
    screenshot_url: ASSET,
    screenshot_colors: screenshotColors,
  },
  social_links: {
    twitter: null,
    linkedin: 'https://www.linkedin.com/company/northwind-roasters',
    github: null,
    facebook: null,
    instagram: 'https://www.instagram.com/northwindroasters',
    youtube: null,
  },
};

const company = {
  name: 'Northwind Roasters LLC',
  brand_name: 'Northwind Roasters',
  emails: ['hello@northwind.example'],
  addresses: ['1200 SE Water Ave, Portland, OR 97214'],
  sources: ['jsonld', 'footer', 'og', 'title', 'text', 'mailto', 'address'],
  confidence: 0.9,
  pages: [SITE],
};

const classification: Classification = {
  url: SITE,
  iab_id: 'IAB8-6',
  iab_parent_id: 'IAB8',
  category: 'Food & Drink',
  subcategory: 'Coffee/Tea',
  description:
    'Northwind Roasters sources single-origin beans directly from farmers and roasts them in small batches in Portland, Oregon. Coffee subscriptions and wholesale for cafés.',
};

const enrich: EnrichData = { ...brand, company, classification };
const companyData: CompanyResponseData = { domain: brand.domain, url: SITE, ...company };
const screenshot: ScreenshotData = {
  url: SITE,
  screenshot_url: ASSET,
  viewport: { width: 1440, height: 900 },
  format: 'jpeg',
  full_page: false,
  screenshot_clipped: false,
  captured_at: '2026-11-23T18:39:25.820Z',
};

/** The `data` of a 200 per paid endpoint. */
export const DATA_EXAMPLES: Record<PaidEndpoint, unknown> = { enrich, brand, company: companyData, classify: classification, screenshot };
export const DURATION_EXAMPLES: Record<PaidEndpoint, number> = { enrich: 1114, brand: 980, company: 870, classify: 760, screenshot: 534 };

export function successExample(data: unknown, durationMs: number): { success: true; data: unknown; meta: { requestId: string; durationMs: number } } {
  return { success: true, data, meta: meta(durationMs) };
}

export function errorExample(error: string): ErrorEnvelope {
  return { success: false, error, meta: meta(3) };
}
