/**
 * The playground at `/`: plain HTML, CSS and one script (src/playground/), no key needed to load it.
 * The key is typed into the page, kept in the browser's storage and sent only to this origin; the
 * Content-Security-Policy lets the page talk to nothing else (images excepted: logos and screenshots
 * live on other hosts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const DIR = join(import.meta.dirname, '..', 'playground');
const FILES = [
  { route: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { route: '/playground/playground.css', file: 'playground.css', type: 'text/css; charset=utf-8' },
  { route: '/playground/playground.js', file: 'playground.js', type: 'text/javascript; charset=utf-8' },
] as const;

export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' http: https: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function registerPlayground(app: FastifyInstance): void {
  for (const { route, file, type } of FILES) {
    const body = readFileSync(join(DIR, file));
    app.get(route, async (_request, reply) =>
      reply
        .type(type)
        .header('content-security-policy', PLAYGROUND_CSP)
        .header('x-content-type-options', 'nosniff')
        // Logos load from the analysed sites: they need not learn where the page was opened.
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .send(body),
    );
  }
}
