/**
 * Pages that are not the site, served on 127.0.0.2 with the status and headers their vendors use:
 * the fixtures under test/fixtures/sites/walls/ (modelled on the vendors' public markup) plus
 * generated non-HTML answers. Every case says what the client must read; `ok-*` cases are normal
 * pages that only look suspicious (reCAPTCHA on a contact form, an article quoting challenge
 * markup, a Cloudflare- or DataDome-protected page) and must be enriched like any other.
 * Vendor hosts in the markup (captcha-delivery.com, awswaf.com, sedoparking.com...) are only names:
 * tests resolve every name to 127.0.0.2 (RESOLVE_OVERRIDES=*=127.0.0.2), so nothing leaves loopback.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../fixtures/sites/walls/', import.meta.url));
const fixture = (name: string): string => readFileSync(`${DIR}${name}/index.html`, 'utf8');

export interface WallCase {
  /** Path on the wall site, `/walls/<name>`. */
  path: string;
  status: number;
  headers: Record<string, string>;
  body: () => string | Buffer;
  /** What the 502's `error` must say; null for a normal page that must succeed. */
  expect: RegExp | null;
}

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const CF = { ...HTML, server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6a7b-LHR' };
const PNG_1PX = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000001f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2d6bd4b0000000049454e44ae426082',
  'hex',
);
const NO_AUTOMATION = 'instead of its page; it cannot be enriched automatically$';
const page = (name: string, status: number, expect: RegExp | null, headers: Record<string, string> = HTML): WallCase => ({
  path: `/walls/${name}`,
  status,
  headers,
  body: () => fixture(name),
  expect,
});

export const WALL_CASES: WallCase[] = [
  page('cloudflare-challenge', 403, new RegExp(`^The site answered with a bot challenge \\(Cloudflare: cf-mitigated: challenge\\) ${NO_AUTOMATION}`), {
    ...CF,
    'cf-mitigated': 'challenge',
  }),
  page('cloudflare-legacy', 503, new RegExp(`^The site answered with a bot challenge \\(Cloudflare: "Just a moment\\.\\.\\."\\) ${NO_AUTOMATION}`), CF),
  page(
    'akamai-denied',
    403,
    /^The site blocked the automated browser \(Akamai "Access Denied", reference #18\.2d351ab8\.1732350000\.5f3a9c21\) instead of showing its page; it cannot be enriched automatically$/,
    { ...HTML, server: 'AkamaiGHost' },
  ),
  page('datadome', 403, new RegExp(`^The site answered with a bot challenge \\(DataDome: captcha-delivery\\.com CAPTCHA\\) ${NO_AUTOMATION}`), {
    ...HTML,
    'x-datadome': 'protected',
    'x-dd-b': '1',
  }),
  page('perimeterx', 403, new RegExp(`^The site answered with a bot challenge \\(PerimeterX/HUMAN: "Press & Hold"\\) ${NO_AUTOMATION}`)),
  // Imperva answers its block page with 200: only the markup tells.
  page('incapsula', 200, new RegExp(`^The site answered with a bot challenge \\(Imperva/Incapsula: Incapsula block frame\\) ${NO_AUTOMATION}`), {
    ...HTML,
    'x-iinfo': '5-12345678-0 0NNN RT(1732350000000 12)',
    'x-cdn': 'Imperva',
  }),
  // No x-amzn-waf-action header and status 202: the interstitial's own script and container tell.
  page('aws-waf', 202, new RegExp(`^The site answered with a bot challenge \\(AWS WAF: challenge\\.js interstitial\\) ${NO_AUTOMATION}`)),
  page('hcaptcha-interstitial', 200, new RegExp(`^The site answered with a CAPTCHA \\(hCaptcha\\) ${NO_AUTOMATION}`)),
  // A CAPTCHA with 429: what was met (the CAPTCHA) is named, not just the status.
  page('recaptcha-interstitial', 429, new RegExp(`^The site answered with a CAPTCHA \\(reCAPTCHA\\) ${NO_AUTOMATION}`)),
  page('parked-sedo', 200, /^The domain is parked \(Sedo parking page, for sale\) and has no site to enrich$/),
  page('parked-js', 200, /^The domain is parked \(ParkingCrew parking page, for sale\) and has no site to enrich$/),
  page(
    'http-404',
    404,
    /^The target answered HTTP 404 Not Found at http:\/\/127\.0\.0\.2:\d+\/walls\/http-404; there is no page at this URL; check the address$/,
  ),
  {
    ...page('http-404', 410, /^The target answered HTTP 410 Gone at http:\/\/127\.0\.0\.2:\d+\/walls\/gone; there is no page at this URL/),
    path: '/walls/gone',
  },
  page(
    'http-500',
    500,
    /^The target answered HTTP 500 Internal Server Error at http:\/\/127\.0\.0\.2:\d+\/walls\/http-500; the site itself is failing; try again later$/,
  ),
  {
    path: '/walls/report.pdf',
    status: 200,
    headers: { 'content-type': 'application/pdf' },
    body: () => '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    expect: /^The URL is a PDF document \(application\/pdf\), not a web page$/,
  },
  {
    path: '/walls/logo.png',
    status: 200,
    headers: { 'content-type': 'image/png' },
    body: () => PNG_1PX,
    expect: /^The URL is an image \(image\/png\), not a web page$/,
  },
  {
    path: '/walls/api.json',
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: () => '{"status":"ok","items":[]}',
    expect: /^The URL is a JSON document \(application\/json\), not a web page$/,
  },
  {
    path: '/walls/export.bin',
    status: 200,
    headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="export.bin"' },
    body: () => 'binary',
    expect: /^The URL is a file download \(http:\/\/127\.0\.0\.2:\d+\/walls\/export\.bin\), not a web page$/,
  },
  page('ok-contact-recaptcha', 200, null),
  page('ok-captcha-article', 200, null),
  page('ok-cloudflare-turnstile', 200, null, CF),
  page('ok-datadome-protected', 200, null, { ...HTML, 'x-datadome': 'protected' }),
  page('ok-incapsula-protected', 200, null, { ...HTML, 'x-cdn': 'Imperva' }),
  page('ok-domain-broker', 200, null),
  page('ok-consent-banners', 200, null),
  page('ok-fixed-layers', 200, null),
  page('ok-preloader', 200, null),
  page('ok-stuck-preloader', 200, null),
  page('ok-age-gate', 200, null),
  page('ok-fullscreen-slider', 200, null),
];

export interface WallSites {
  origin: string;
  /** Requests the site received for a path. */
  hits(path: string): number;
  close(): Promise<void>;
}

function send(res: ServerResponse, c: WallCase): void {
  const body = c.body();
  res.writeHead(c.status, { ...c.headers, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/** Serves WALL_CASES; `/walls/slow?ms=` answers a normal page after a delay (one render shared by many). */
export async function startWallSites(): Promise<WallSites> {
  const byPath = new Map(WALL_CASES.map((c) => [c.path, c]));
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://wall.test');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const c = byPath.get(url.pathname);
    if (c) return send(res, c);
    if (url.pathname === '/_Incapsula_Resource')
      return send(res, { path: '', status: 200, headers: HTML, body: () => '<html><body>Request unsuccessful.</body></html>', expect: null });
    if (url.pathname === '/walls/slow') {
      setTimeout(() => send(res, { ...page('ok-datadome-protected', 200, null), headers: HTML }), Number(url.searchParams.get('ms') ?? 500));
      return;
    }
    res.writeHead(404, HTML);
    res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.2', resolve);
  });
  return {
    origin: `http://127.0.0.2:${(server.address() as { port: number }).port}`,
    hits: (path) => hits.get(path) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
