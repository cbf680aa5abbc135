/**
 * Pages that are not the site: decided from facts about the final response and the rendered page.
 * Pure functions, so every rule can be read (and tested) on its own. Each rule needs a signal that
 * belongs to the vendor (its header, its challenge markup, its block-page title), never a word a
 * normal page could say: a shop that loads reCAPTCHA on its contact form, a Cloudflare-served page
 * with Cloudflare's bot-detection script, or a blog post about CAPTCHAs must pass.
 */

export interface PageFacts {
  /** The final URL (after redirects). */
  url: string;
  status: number;
  statusText: string;
  /** Response headers of the final document, lower-case names. */
  headers: Record<string, string>;
  title: string;
  /** Visible text of the body, whitespace collapsed, cut at TEXT_CHARS. */
  text: string;
  /** Length of the whole visible text. */
  textLength: number;
  /** `a[href]` elements. */
  links: number;
  /** Visible fields a person fills in (text, email, textarea, select...), captcha widgets excluded. */
  fields: number;
  /** Which of MARKER_SELECTORS are elements of the page (markup quoted in an article's text is not). */
  present: string[];
  /** Inline script texts, joined and cut (a code sample on a page is not a script). */
  scripts: string;
  /** `src` of every iframe. */
  frames: string[];
  /** `src`/`href` of scripts, stylesheets, iframes, links and images. */
  urls: string[];
}

/** The elements the rules look for; the page reports which exist. */
export const MARKER_SELECTORS = [
  '#challenge-form',
  '.cf-browser-verification',
  '#cf-challenge-running',
  '#challenge-running',
  '#px-captcha',
  '#challenge-container',
  '#captcha-container',
  '.h-captcha',
  '.g-recaptcha',
  '.cf-turnstile',
  '#parking-lander',
] as const;

export type WallKind = 'bot_challenge' | 'captcha' | 'parked' | 'http_error' | 'not_html';

export interface Wall {
  kind: WallKind;
  /** Who served it: a bot-management vendor, a CAPTCHA, a parking provider; absent when unknown. */
  vendor?: string;
  /** What the client reads: what was met, in words it can act on. */
  message: string;
}

const NO_AUTOMATION = 'it cannot be enriched automatically';

function challenge(vendor: string, seen: string): Wall {
  return {
    kind: 'bot_challenge',
    vendor,
    message: `The site answered with a bot challenge (${vendor}${seen ? `: ${seen}` : ''}) instead of its page; ${NO_AUTOMATION}`,
  };
}

const CF_TITLES = /^(just a moment\.\.\.|attention required! \| cloudflare|please wait\.\.\. \| cloudflare|one more step)$/i;
const CF_SCRIPT = /window\._cf_chl_opt|\/cdn-cgi\/challenge-platform\/h\/[a-z]\/orchestrate\/(chl_page|captcha|managed)/i;
const has = (f: PageFacts, ...selectors: string[]): boolean => selectors.some((s) => f.present.includes(s));
const anyUrl = (list: string[], re: RegExp): boolean => list.some((u) => re.test(u));

function cloudflare(f: PageFacts): Wall | null {
  if ((f.headers['cf-mitigated'] ?? '').toLowerCase() === 'challenge') return challenge('Cloudflare', 'cf-mitigated: challenge');
  // Cloudflare injects /cdn-cgi/challenge-platform/scripts/jsd/... into normal pages too: only the challenge's own parts count.
  if (!CF_SCRIPT.test(f.scripts) && !has(f, '#challenge-form', '.cf-browser-verification', '#cf-challenge-running')) return null;
  // The markup alone could be quoted in an article; with the challenge title or a refusing status it is the page.
  if (CF_TITLES.test(f.title.trim()) || [403, 429, 503].includes(f.status)) return challenge('Cloudflare', `"${f.title.trim() || 'challenge page'}"`);
  return null;
}

const AKAMAI_REFERENCE = /Reference\s*#\s*(\d{1,3}\.[0-9a-f]+\.\d+\.[0-9a-f]+)/i;

function akamai(f: PageFacts): Wall | null {
  if (f.title.trim().toLowerCase() !== 'access denied') return null;
  const ref = AKAMAI_REFERENCE.exec(f.text);
  const ghost = /akamaighost/i.test(f.headers.server ?? '') || /errors\.edgesuite\.net/i.test(f.text);
  if (!ref && !ghost) return null;
  const seen = `"Access Denied"${ref ? `, reference #${ref[1]}` : ''}`;
  return {
    kind: 'bot_challenge',
    vendor: 'Akamai',
    message: `The site blocked the automated browser (Akamai ${seen}) instead of showing its page; ${NO_AUTOMATION}`,
  };
}

function datadome(f: PageFacts): Wall | null {
  const frame = anyUrl(f.frames, /^https?:\/\/[a-z0-9.-]*captcha-delivery\.com\/(captcha|interstitial)\//i);
  // Every response of a protected site carries x-datadome; only a refusing status with it is the block page.
  const blocked = 'x-datadome' in f.headers && f.status === 403;
  if (!frame && !blocked) return null;
  return challenge('DataDome', frame ? 'captcha-delivery.com CAPTCHA' : 'x-datadome block');
}

function perimeterx(f: PageFacts): Wall | null {
  if (!has(f, '#px-captcha') && !/window\._pxCaptcha/.test(f.scripts)) return null;
  const pressHold = /press\s*(&|&amp;|and)\s*hold/i.test(f.text);
  if (f.status < 400 && !pressHold && !/access to this page has been denied/i.test(f.title)) return null;
  return challenge('PerimeterX/HUMAN', pressHold ? '"Press & Hold"' : 'px-captcha');
}

function imperva(f: PageFacts): Wall | null {
  // Normal pages of protected sites load `/_Incapsula_Resource?SWJIYLWA=...`; the block page frames CWUDNSAI.
  const incident = /Incapsula incident ID/i.test(f.text) && f.textLength < 600;
  if (!incident && !anyUrl(f.frames, /_Incapsula_Resource\?CWUDNSAI=/i)) return null;
  return challenge('Imperva/Incapsula', incident ? '"Request unsuccessful. Incapsula incident ID"' : 'Incapsula block frame');
}

function awsWaf(f: PageFacts): Wall | null {
  const action = (f.headers['x-amzn-waf-action'] ?? '').toLowerCase();
  if (action === 'challenge' || action === 'captcha') return challenge('AWS WAF', `x-amzn-waf-action: ${action}`);
  if (!/window\.gokuProps\s*=/.test(f.scripts)) return null;
  const script = anyUrl(f.urls, /awswaf\.com\/.*\/(challenge|captcha|jsapi)\.js/i);
  const container = has(f, '#challenge-container', '#captcha-container');
  if (!script && !container) return null;
  return challenge('AWS WAF', 'challenge.js interstitial');
}

const CAPTCHA_WIDGETS: Array<[string, RegExp, string]> = [
  ['.h-captcha', /^https?:\/\/[a-z0-9.-]*hcaptcha\.com\//i, 'hCaptcha'],
  ['.g-recaptcha', /^https?:\/\/(www\.)?(google|recaptcha)\.(com|net)\/recaptcha\//i, 'reCAPTCHA'],
  ['.cf-turnstile', /^https?:\/\/challenges\.cloudflare\.com\//i, 'Cloudflare Turnstile'],
];
const CAPTCHA_WORDS = /robot|human|verify|verification|security check|captcha|unusual traffic|automated (queries|requests|access)/i;

/** A page whose main content is only a CAPTCHA widget: little text, hardly any links, nothing to fill in. */
function captchaInterstitial(f: PageFacts): Wall | null {
  const widget = CAPTCHA_WIDGETS.find(([selector, frame]) => has(f, selector) || anyUrl(f.frames, frame));
  if (!widget) return null;
  if (f.textLength > 600 || f.links > 5 || f.fields > 0) return null;
  if (!CAPTCHA_WORDS.test(f.text) && !CAPTCHA_WORDS.test(f.title)) return null;
  return { kind: 'captcha', vendor: widget[2], message: `The site answered with a CAPTCHA (${widget[2]}) instead of its page; ${NO_AUTOMATION}` };
}

const PARKING_PROVIDERS: Array<[RegExp, string]> = [
  [/sedoparking\.com|sedo\.com\/(search\/details|services\/parking)/i, 'Sedo'],
  [/parkingcrew\.net/i, 'ParkingCrew'],
  [/\/\/([a-z0-9-]+\.)*bodis\.com\/|bodis\.com\/parking/i, 'Bodis'],
  [/img1\.wsimg\.com\/parking-lander/i, 'GoDaddy'],
  [/\/\/([a-z0-9-]+\.)*(above\.com|parklogic\.com|dan\.com\/buy-domain|afternic\.com\/forsale)/i, 'a domain marketplace'],
];
// English, and "this domain is for sale" in the main European languages (a lander's own words).
const FOR_SALE_ELSEWHERE =
  /diese domain (steht zum verkauf|kann (gekauft|erworben) werden|ist zu verkaufen)|(ce|le) (nom de )?domaine (\S+ )?(est|peut être) à vendre|(este|el) dominio (\S+ )?(está|puede estar) (a la )?venta|questo dominio (\S+ )?è in vendita|dit domein (\S+ )?is te koop|ta domena (\S+ )?jest na sprzedaż|este domínio (\S+ )?está à venda|denna domän (\S+ )?är till salu|dette domæne (\S+ )?er til salg/i;
const PARKING_WORDS = new RegExp(
  `this domain (name )?(is|may be) for sale|domain (name )?may be for sale|the domain( name)? \\S+ (is|may be) for sale|buy this domain|this domain has (recently )?been registered|this domain is parked|parked free|${FOR_SALE_ELSEWHERE.source}`,
  'i',
);

function parked(f: PageFacts): Wall | null {
  const provider = PARKING_PROVIDERS.find(([re]) => anyUrl(f.urls, re)) ?? (has(f, '#parking-lander') ? ([/./, 'GoDaddy'] as const) : undefined);
  const words = PARKING_WORDS.test(f.text) || PARKING_WORDS.test(f.title);
  // A real site that mentions parking (a registrar, an article) has far more to say than a lander.
  if (!(provider && f.textLength < 3000) && !(words && f.textLength < 1500)) return null;
  const forSale = /for sale|buy this domain/i.test(`${f.title} ${f.text}`) || FOR_SALE_ELSEWHERE.test(`${f.title} ${f.text}`);
  const by = provider ? `${provider[1]} parking page` : 'parking page';
  return { kind: 'parked', vendor: provider?.[1], message: `The domain is parked (${by}${forSale ? ', for sale' : ''}) and has no site to enrich` };
}

const STATUS_HINTS: Array<[(s: number) => boolean, string]> = [
  [(s) => s === 401 || s === 407, 'the page needs a login'],
  [(s) => s === 403, 'the site refuses access to this page'],
  [(s) => s === 404 || s === 410, 'there is no page at this URL; check the address'],
  [(s) => s === 429, 'the site is limiting requests; try again later'],
  [(s) => s >= 500, 'the site itself is failing; try again later'],
];

export function httpError(f: Pick<PageFacts, 'status' | 'statusText' | 'url'>, reasons: Record<number, string | undefined>): Wall | null {
  if (f.status < 400) return null;
  const reason = f.statusText.trim() || reasons[f.status] || 'error';
  const hint = STATUS_HINTS.find(([applies]) => applies(f.status))?.[1] ?? 'the page is an error page';
  return { kind: 'http_error', message: `The target answered HTTP ${f.status} ${reason} at ${f.url}; ${hint}` };
}

/** Vendors first (their pages often come with 403/503), then the HTTP status, then parking. */
export function detectWall(f: PageFacts, reasons: Record<number, string | undefined>): Wall | null {
  for (const rule of [cloudflare, akamai, datadome, perimeterx, imperva, awsWaf, captchaInterstitial]) {
    const wall = rule(f);
    if (wall) return wall;
  }
  return httpError(f, reasons) ?? parked(f);
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TYPE_NAMES: Array<[RegExp, string]> = [
  [/^application\/pdf$/, 'a PDF document'],
  [/^image\//, 'an image'],
  [/^video\//, 'a video'],
  [/^audio\//, 'an audio file'],
  [/^(application\/(.+\+)?json|text\/json)$/, 'a JSON document'],
  [/^application\/(rss|atom)\+xml$/, 'a news feed'],
  [/^(text|application)\/(.+\+)?xml$/, 'an XML document'],
  [/^text\/plain$/, 'a plain-text file'],
  [/^text\/css$/, 'a stylesheet'],
  [/^(text|application)\/(x-)?(javascript|ecmascript)$/, 'a script'],
  [/^text\/csv$/, 'a CSV file'],
  [/^application\/(zip|gzip|x-tar|x-7z-compressed|x-rar-compressed)$/, 'an archive'],
  [/^application\/(msword|vnd\.)/, 'an office document'],
];

const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** What the media type is called in an error message, when it is one of the kinds named above. */
export function mediaTypeName(contentType: string | undefined): string | undefined {
  const type = mediaType(contentType);
  return TYPE_NAMES.find(([re]) => re.test(type))?.[1];
}

/** The main response's media type, when it is not a web page. A missing type is left to the browser's sniffing. */
export function notHtml(contentType: string | undefined): Wall | null {
  const type = mediaType(contentType);
  if (!type || HTML_TYPES.has(type)) return null;
  return { kind: 'not_html', message: `The URL is ${mediaTypeName(type) ?? 'a file'} (${type}), not a web page` };
}
