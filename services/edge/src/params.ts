/**
 * Query parameters: the raw query string is parsed here (so repeated parameters are seen, not
 * silently merged), validated with the contract's zod schemas, and the target URL is normalised.
 * Messages always say which parameter, what was given and what is allowed.
 */
import type { z } from 'zod';
import { URL_MAX_CHARS } from '@enrich/shared/contracts';
import { InvalidParameterError, UrlForbiddenError } from '@enrich/shared/errors';

export type RawQuery = Record<string, string | string[]>;

/** Fastify's querystringParser: keeps every value of a repeated parameter. */
export function parseRawQuery(qs: string): RawQuery {
  const out: RawQuery = {};
  for (const [name, value] of new URLSearchParams(qs)) {
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

const BOOLEAN = 'true, false, 1 or 0';
/** What each parameter accepts, in words, for error messages. */
export const ALLOWED: Record<string, string> = {
  url: `an http:// or https:// URL of at most ${URL_MAX_CHARS} characters (http:// is assumed when no scheme is given)`,
  width: 'a whole number from 320 to 5000',
  height: 'a whole number from 320 to 5000',
  screenshotColors: 'a whole number from 2 to 12',
  format: 'jpeg, png or webp',
  full_page: BOOLEAN,
  css: BOOLEAN,
  html: BOOLEAN,
  javascript: BOOLEAN,
  follow_links: BOOLEAN,
  maxAge: 'a whole number of seconds from 0 to 2592000 (30 days): the oldest cached answer accepted; 0 renders now',
};

function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value) + (value.length > 80 ? ` (${value.length} characters)` : '');
}

export function parseQuery<S extends z.ZodObject>(schema: S, raw: RawQuery): z.infer<S> {
  const allowedNames = Object.keys(schema.shape);
  const repeated = Object.entries(raw).filter(([, v]) => Array.isArray(v));
  if (repeated.length > 0) {
    const list = repeated.map(([k, v]) => `"${k}" (${(v as string[]).length} times)`).join(', ');
    throw new InvalidParameterError(`Repeated query parameter ${list}: give each parameter once`);
  }
  const unknown = Object.keys(raw).filter((k) => !allowedNames.includes(k));
  if (unknown.length > 0) {
    throw new InvalidParameterError(
      `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; ${allowedNames.length > 0 ? `this endpoint accepts ${allowedNames.join(', ')}` : 'this endpoint takes no query parameters'}`,
    );
  }
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? '');
    if (seen.has(name)) continue;
    seen.add(name);
    const given = raw[name];
    if (given === undefined) problems.push(`Missing query parameter "${name}": give ${ALLOWED[name] ?? issue.message}`);
    else problems.push(`Invalid query parameter "${name}": got ${shown(String(given))}, allowed: ${ALLOWED[name] ?? issue.message}`);
  }
  throw new InvalidParameterError(problems.join('; '));
}

/**
 * Trims, assumes http:// when no scheme is given, accepts only http/https with a host. Whether the
 * host resolves to a forbidden address is the renderer's check (it resolves DNS; the edge does not).
 */
export function normalizeTargetUrl(input: string): string {
  let candidate = input.trim();
  if (candidate.startsWith('//')) candidate = `http:${candidate}`;
  // A scheme is "letters:" not followed by a port number ("example.com:8080" has no scheme).
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(candidate)?.[1];
  if (scheme === undefined) candidate = `http://${candidate}`;
  else if (!/^https?$/i.test(scheme)) {
    throw new UrlForbiddenError(
      `Invalid query parameter "url": scheme "${scheme.toLowerCase()}:" is not allowed; only http:// and https:// URLs can be enriched`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(candidate);
  } catch {
    throw new InvalidParameterError(`Invalid query parameter "url": got ${shown(input)}, which is not a valid URL; allowed: ${ALLOWED.url}`);
  }
  if (!parsed.hostname) throw new InvalidParameterError(`Invalid query parameter "url": got ${shown(input)}, which has no host name`);
  const href = parsed.href;
  if (href.length > URL_MAX_CHARS) {
    throw new InvalidParameterError(`Invalid query parameter "url": it is ${href.length} characters once normalised, allowed: at most ${URL_MAX_CHARS}`);
  }
  return href;
}

/** The seed's `domain`: the final URL's host name without a leading "www.". */
export function domainOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./i, '');
}
