/** The renderer's environment, validated once at boot (merged with BaseConfigSchema by runService). */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, envBoolean, envInt, loadConfig } from '@enrich/shared/runtime';
import { parseAllowList, parseResolveOverrides } from './ssrf.ts';

/** Debian's `chromium-headless-shell`: Chromium's headless shell, without the full browser's UI layer. */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';
/** Debian's `chromium`: the full browser, run in its headless mode. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The browser used when CHROMIUM_PATH is not set: the headless shell where it is installed (what a
 * plain Playwright launch uses for headless pages), else the full Chromium in its headless mode. The
 * shell costs a third less CPU a page and 150-200 MB less memory at 4 pages (README "Headless shell").
 */
export function defaultChromiumPath(exists: (path: string) => boolean = existsSync): string {
  return exists(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : FULL_CHROMIUM_PATH;
}

export const DEFAULT_CHROMIUM_PATH = defaultChromiumPath();

export const RendererConfigSchema = z.object({
  CHROMIUM_PATH: z.string().min(1).default(DEFAULT_CHROMIUM_PATH),
  /** Pages rendered at once by this process. */
  RENDER_CONCURRENCY: envInt(1, 64).default(2),
  /** Requests waiting for a free page beyond RENDER_CONCURRENCY; more are answered BUSY. */
  RENDER_QUEUE: envInt(0, 10_000).default(8),
  /** Pages a browser serves before a fresh one replaces it (Chromium leaks memory over time). */
  BROWSER_RECYCLE_PAGES: envInt(1, 1_000_000).default(200),
  /**
   * Retire the browser once its process tree (browser, renderers, utilities) holds more than this
   * PSS in MB, read from /proc at most once a second when a page is leased. Unset: 200 + 125 x
   * RENDER_CONCURRENCY (what the tree holds at its working peak plus room, measured with
   * test/bench/renderer-memory.ts); 0: never.
   */
  BROWSER_PSS_CAP_MB: envInt(0, 1_000_000).optional(),
  /** Open the next job's context and page ahead while the renderer is idle (spare.ts); `false` opens each when its job starts. */
  RENDER_SPARE_PAGE: envBoolean.default(true),
  /** CIDRs exempt from the SSRF guard, comma-separated; tests and local development only. */
  ALLOW_PRIVATE_TARGETS: z
    .string()
    .default('')
    .refine(
      (v) => {
        try {
          parseAllowList(v);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be comma-separated CIDRs like 127.0.0.2/32' },
    ),
  /**
   * Tests and evaluation only, never in production: `host=ip` pairs (`*` for every name) resolved
   * without DNS, so saved pages load under their real domains from a local server.
   */
  RESOLVE_OVERRIDES: z
    .string()
    .default('')
    .refine(
      (v) => {
        try {
          parseResolveOverrides(v);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be comma-separated host=ip pairs like www.example.com=127.0.0.2 or *=127.0.0.2' },
    ),
  /**
   * Pixel budget of one capture (width x height). A full-page capture keeps the viewport's width and
   * is cut in height to fit (and to 16 383 px, the WebP limit); the reply says `clipped`. Default 40 MP
   * (1920 x 20 833, 5000 x 8000).
   */
  SCREENSHOT_MAX_PIXELS: envInt(1_000_000, 500_000_000).default(40_000_000),
  SCREENSHOT_DIR: z.string().min(1).default('./.data/screenshots'),
  /** Where the edge serves SCREENSHOT_DIR: a local screenshot stored under key K is at `${ASSETS_BASE_URL}/${K}`. */
  ASSETS_BASE_URL: z.url().default('http://127.0.0.1:8080/assets'),
  /** When set, screenshots go to this S3 bucket instead of SCREENSHOT_DIR. */
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_FORCE_PATH_STYLE: envBoolean.default(false),
  /** Base of public object URLs; default derived from the endpoint and bucket. */
  S3_PUBLIC_URL: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
});
export type RendererConfig = z.infer<typeof RendererConfigSchema>;

/** For tests and tools: the renderer's settings from an env-like record, with every default applied. */
export function loadRendererConfig(env: Record<string, string | undefined> = process.env): RendererConfig {
  return loadConfig(RendererConfigSchema, env);
}

/** Settings that exist for tests and local development only: they open the SSRF guard. */
export const TEST_SWITCHES = ['ALLOW_PRIVATE_TARGETS', 'RESOLVE_OVERRIDES'] as const;

/** The test switches that are set (non-empty), with their values. */
export function testSwitchesSet(values: Partial<Record<(typeof TEST_SWITCHES)[number], string | undefined>>): Array<[string, string]> {
  return TEST_SWITCHES.flatMap((name) => (values[name] ? [[name, values[name]] as [string, string]] : []));
}

/**
 * With NODE_ENV=production (the images set it) a test switch stops the start, naming it, so an
 * evaluation or test setting can never open the guard in production.
 */
export function refuseTestSwitchesInProduction(env: Record<string, string | undefined> = process.env): void {
  if (env.NODE_ENV !== 'production') return;
  const set = testSwitchesSet(env);
  if (set.length === 0) return;
  const lines = set.map(([name, value]) => `  ${name}=${JSON.stringify(value)}: a test switch, refused when NODE_ENV=production (leave it empty)`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** The browser's PSS cap in MB (BROWSER_PSS_CAP_MB, else derived from RENDER_CONCURRENCY); 0: none. */
export function browserPssCapMb(config: Pick<RendererConfig, 'BROWSER_PSS_CAP_MB' | 'RENDER_CONCURRENCY'>): number {
  return config.BROWSER_PSS_CAP_MB ?? 200 + 125 * config.RENDER_CONCURRENCY;
}
