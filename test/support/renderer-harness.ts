/** Starts an in-process renderer against the fixture sites, with the test allow-list. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RenderRequest, RenderResult } from '@enrich/shared/contracts';
import { createLogger } from '@enrich/shared/runtime';
import { loadRendererConfig, type RendererConfig } from '../../services/renderer/src/config.ts';
import type { PoolOptions } from '../../services/renderer/src/pool.ts';
import { createRenderer, type Renderer } from '../../services/renderer/src/service.ts';
import { resolveAll, type Resolve } from '../../services/renderer/src/ssrf.ts';

export const testLog = createLogger('renderer-test', 'silent');

export function testConfig(env: Record<string, string> = {}): RendererConfig {
  return loadRendererConfig({
    ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
    SCREENSHOT_DIR: mkdtempSync(join(tmpdir(), 'renderer-shots-')),
    ASSETS_BASE_URL: 'http://127.0.0.1:8080/assets',
    ...env,
  });
}

export function renderRequest(url: string, over: Partial<RenderRequest> = {}): RenderRequest {
  return { requestId: randomUUID(), url, viewport: { width: 1280, height: 800 }, screenshot: null, snapshot: true, scripts: false, visuals: false, ...over };
}

/** System DNS plus fixed names: hostnames only our resolver knows prove the browser connects where we checked. */
export function fixtureResolver(names: Record<string, string[]>): Resolve {
  return async (host) => {
    const fixed = names[host];
    if (fixed) return fixed;
    if (host.endsWith('.invalid')) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return resolveAll(host);
  };
}

export function startTestRenderer(
  env: Record<string, string> = {},
  resolve?: Resolve,
  launch?: PoolOptions['launch'],
): { renderer: Renderer; config: RendererConfig; render(req: RenderRequest, budgetMs?: number): Promise<RenderResult> } {
  const config = testConfig(env);
  const renderer = createRenderer({ config, log: testLog, ...(resolve ? { resolve } : {}), ...(launch ? { launch } : {}) });
  return {
    renderer,
    config,
    render(req, budgetMs = 20_000) {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), budgetMs);
      return renderer.render(req, { deadline: Date.now() + budgetMs, signal: abort.signal, log: testLog }).finally(() => clearTimeout(timer));
    },
  };
}
