/**
 * `npm run eval`: every extractor over the development corpus through the real HTTP API. Starts the
 * stack (or uses EVAL_BASE_URL + EVAL_API_KEY), serves the corpus pages on 127.0.0.2, asks /enrich for
 * each page's local copy, and scores the answer against ground_truth.jsonl with the scorers in
 * score-company.ts, score-classify.ts and score-brand.ts (logos also against test/eval/labels/logos.jsonl).
 * Prints every figure for the validation and the tuning half of the split (test/eval/split.ts) and
 * the gap between them, and writes both halves to test/eval/results/eval.json (per-page answers of
 * the tuning half only). Missed contact-page emails are also counted, per half, by where the page has
 * them (annotated text, a mailto in the HTML, a mailto only a script writes: labels/emails.jsonl) and
 * by page: counts that say which kind of miss to look for without showing a validation page.
 *
 * Each page is requested under its live domain (http://www.leewardpro.com:<port>/wsb-0.html), and the
 * renderer resolves every name to the local page server (RESOLVE_OVERRIDES=*=127.0.0.2), so the
 * analyzers see the domain a customer's request would carry. The pages' <base href> and external
 * stylesheets then point at the page server too and fail fast (404 or refused), so styling and remote
 * logos are often missing, as on the offline runs. Pages are served as text/html without a charset
 * (their <meta> decides), except UTF-8 pages that declare none, which get `charset=utf-8` (corpus.ts
 * `charsetOf`): the browser read those as windows-1252 ("Â©", "â€™") until 2026-11-26, where the
 * offline evals read UTF-8. Hosts on Chromium's HSTS preload list (medium.com,
 * wikipedia.org, theguardian.com, ...) are upgraded to https by Chromium itself: the page server
 * answers TLS on the same port with a certificate from a throwaway CA trusted for the run in root's
 * NSS database (tls.ts; needs openssl and certutil, else those pages are asked at 127.0.0.2, where
 * their domain is lost: that was the case until 2026-11-25 for 12 article pages).
 *
 * Article pages (readability) carry the publication's name as truth ("the Guardian"), which is what
 * `brand_name` is for; `name` is the legal entity where the page states one ("Guardian News & Media
 * Limited"), as the seed defines it. Both are printed: "site name = brand_name" is the figure for
 * articles, "site name = name" shows how often the legal name and the publication's name coincide.
 *
 * Environment: EVAL_CORPUS_DIR (default ../shared/corpus/dev beside the repository), EVAL_LIMIT (pages;
 * default all), EVAL_ROLE (only pages of these page_role values, comma-separated: `main` is the
 * logo-labelled set), EVAL_CONCURRENCY (3), EVAL_BASE_URL + EVAL_API_KEY (use a running stack).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { z } from 'zod';
import type { BrandData, Classification, CompanyData, EnrichData } from '@enrich/shared/contracts';
import { envInt, loadConfig } from '@enrich/shared/runtime';
import { freePort } from '../../deploy/local/nats-server.ts';
import { REPO_ROOT, createApiKey, startStack, type Stack } from '../../deploy/local/stack.ts';
import { apiClient } from '../bench/api.ts';
import { closedLoop, summarize } from '../bench/stats.ts';
import {
  classifyTruth,
  corpusDir,
  corpusPresent,
  liveHostsOf,
  loadRecords,
  sampleRecords,
  serveCorpusPages,
  type CorpusRecord,
  type CorpusServer,
} from './corpus.ts';
import { throwawayTls, type ThrowawayTls } from './tls.ts';
import { knownLogoFound, loadLogoLabels, scoreBrand, summarise as summariseBrand, type BrandTruth, type BrandVerdicts } from './score-brand.ts';
import { loadArticleTopics, summarizeClassifications, type ClassifyTruth } from './score-classify.ts';
import { loadEmailLabels, precisionRecall, scoreCompany, withEmailLabels, withStatedLegalNames, type CompanyScore, type Counts } from './score-company.ts';

const emailLabels = loadEmailLabels('rendered');
const emailsInMarkup = loadEmailLabels('markup');
import { formatHalves, halfOf, siteOf, type Half } from './split.ts';

const config = loadConfig(
  z.object({
    EVAL_CORPUS_DIR: z.string().min(1).optional(),
    EVAL_LIMIT: envInt(1, 100_000).optional(),
    EVAL_ROLE: z.string().min(1).optional(),
    EVAL_CONCURRENCY: envInt(1, 64).default(3),
    EVAL_BASE_URL: z.url().optional(),
    EVAL_API_KEY: z.string().min(1).optional(),
  }),
);
const say = (line = ''): void => void process.stdout.write(`${line}\n`);

const dir = corpusDir(REPO_ROOT, config.EVAL_CORPUS_DIR);
if (!corpusPresent(dir)) {
  say(`eval skipped: no corpus at ${dir} (ground_truth.jsonl and pages/ expected; set EVAL_CORPUS_DIR to point elsewhere)`);
  process.exit(0);
}
if (config.EVAL_BASE_URL && !config.EVAL_API_KEY) {
  process.stderr.write('EVAL_BASE_URL needs EVAL_API_KEY\n');
  process.exit(2);
}

// With the hand labels of the legal name each page states, as the offline company eval reads them.
const all = withStatedLegalNames(loadRecords(dir), dir, siteOf);
const logoLabels = loadLogoLabels();
const articleTopics = loadArticleTopics();
const byRole = config.EVAL_ROLE ? all.filter((r) => config.EVAL_ROLE!.split(',').includes(r.page_role)) : all;
const records = config.EVAL_LIMIT ? sampleRecords(byRole, config.EVAL_LIMIT) : byRole;
say(
  `corpus: ${dir}: ${all.length} pages; evaluating ${records.length}${records.length < all.length ? ` (EVAL_LIMIT sample: every page with scarce truth first)` : ''} at concurrency ${config.EVAL_CONCURRENCY}`,
);

interface PageResult {
  record: CorpusRecord;
  status: number;
  ms: number;
  error?: string;
  data?: EnrichData;
}

/** Every optional extractor on: code colors from CSS, HTML and JavaScript, and screenshot colors. */
const ENRICH_PARAMS = { css: 'true', html: 'true', javascript: 'true', screenshotColors: '5' };

const EMPTY_COMPANY: CompanyData = { name: '', brand_name: '', emails: [], addresses: [], sources: [], confidence: 0, pages: [] };
const EMPTY_BRAND: BrandData = {
  colors: { brand_colors: [], screenshot_colors: [], code_colors: { css: [], html: [], javascript: [] } },
  fonts: { families: [], google_fonts: [], typekit: [] },
  logos: { primary: null, secondary: [], favicon_url: null, icon_url: null, apple_touch_icon: null },
  images: { og_image: '', twitter_image: '', assets: [], screenshot_url: '', screenshot_colors: [] },
  social_links: { twitter: null, linkedin: null, github: null, facebook: null, instagram: null, youtube: null },
};

let stack: Stack | undefined;
let pages: CorpusServer | undefined;
let dataDir: string | undefined;
let tls: ThrowawayTls | undefined;
let failed = false;
async function cleanup(): Promise<void> {
  await stack?.stop().catch(() => undefined);
  await pages?.close().catch(() => undefined);
  tls?.cleanup();
  if (dataDir && !failed) rmSync(dataDir, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    failed = true;
    void cleanup().then(() => process.exit(130));
  });

try {
  const started = performance.now();
  // Our own stack resolves every name to the page server, so pages load under their live domains; a
  // running stack given by EVAL_BASE_URL may not, so it gets the pages at 127.0.0.2.
  // Hosts on Chromium's HSTS preload list are upgraded to https: the page server answers TLS too,
  // with a throwaway CA trusted for this run (test/eval/tls.ts).
  if (!config.EVAL_BASE_URL) {
    const made = throwawayTls(liveHostsOf(records));
    if ('unavailable' in made) say(`no TLS for HSTS-preloaded hosts (${made.unavailable}): those pages are asked at 127.0.0.2`);
    else tls = made;
  }
  pages = await serveCorpusPages(dir, '127.0.0.2', !config.EVAL_BASE_URL, tls);
  let baseUrl: string;
  let apiKey: string;
  if (config.EVAL_BASE_URL) {
    baseUrl = config.EVAL_BASE_URL.replace(/\/$/, '');
    apiKey = config.EVAL_API_KEY!;
  } else {
    say('starting the stack ...');
    dataDir = mkdtempSync(join(tmpdir(), 'enrich-eval-'));
    stack = await startStack({
      port: await freePort(),
      dataDir,
      logs: 'files',
      env: { LOG_LEVEL: 'warn', ALLOW_PRIVATE_TARGETS: '127.0.0.2/32' },
      // No result cache: every page is scored on what the current code makes of it.
      serviceEnv: { edge: { RATE_LIMIT_IP_PER_MIN: '1000000', CACHE_ENABLED: 'false' }, renderer: { RESOLVE_OVERRIDES: '*=127.0.0.2' } },
      readyTimeoutMs: 180_000,
    });
    baseUrl = stack.baseUrl;
    apiKey = (await createApiKey(stack.natsUrl, { name: 'eval', credits: 1_000_000_000, rateLimit: 1_000_000 })).key;
    say(`stack up at ${baseUrl} in ${((performance.now() - started) / 1000).toFixed(1)} s; service logs in ${join(dataDir, 'logs')}`);
  }
  const api = apiClient(baseUrl, apiKey);
  const corpusPages = pages;

  const results: PageResult[] = [];
  const localFallbacks: string[] = [];
  const evalStarted = performance.now();
  const { samples, wallMs } = await closedLoop(config.EVAL_CONCURRENCY, records.length, async (i) => {
    const record = records[i]!;
    const t0 = performance.now();
    let res: PageResult;
    try {
      let r = await api.call('/enrich', { url: corpusPages.urlOf(record), ...ENRICH_PARAMS }, { timeoutMs: 90_000 });
      // Hosts on Chromium's HSTS preload list (medium.com, ...) are forced to https; without the
      // throwaway CA (no certutil) the page server cannot answer them: asked again at its own address.
      if (r.status === 502 && corpusPages.urlOf(record) !== corpusPages.urlOf(record, true)) {
        localFallbacks.push(record.page_id);
        r = await api.call('/enrich', { url: corpusPages.urlOf(record, true), ...ENRICH_PARAMS }, { timeoutMs: 90_000 });
      }
      res = {
        record,
        status: r.status,
        ms: performance.now() - t0,
        ...(r.ok ? { data: r.body!.data as EnrichData } : { error: r.body?.error ?? 'no envelope' }),
      };
    } catch (err) {
      res = { record, status: 0, ms: performance.now() - t0, error: (err as Error).message };
    }
    results.push(res);
    if (results.length % 25 === 0 || results.length === records.length) {
      const errs = results.filter((x) => !x.data).length;
      say(`  ${results.length}/${records.length} pages, ${((performance.now() - evalStarted) / 1000).toFixed(0)} s${errs ? `, ${errs} failed` : ''}`);
    }
    return { ok: !!res.data, status: res.status };
  });
  const latency = summarize(samples, wallMs);

  // ---- scoring, per half of the split (test/eval/split.ts) -----------------------------------
  const sorted = results.sort((a, b) => a.record.page_id.localeCompare(b.record.page_id));
  const figures = {
    tuning: scoreResults(sorted.filter((x) => halfOf(x.record) === 'tuning')),
    validation: scoreResults(sorted.filter((x) => halfOf(x.record) === 'validation')),
  };
  const perPage = sorted.map(pageLine);
  const failedPages = results.filter((x) => !x.data);
  const statusCounts: Record<string, number> = {};
  for (const f of failedPages) statusCounts[String(f.status)] = (statusCounts[String(f.status)] ?? 0) + 1;

  const L: string[] = [];
  L.push(
    '',
    `== /enrich over ${results.length} corpus pages through the HTTP API (${((performance.now() - started) / 1000).toFixed(0)} s in all, ${(wallMs / 1000).toFixed(0)} s of requests)`,
  );
  L.push(
    `answers: ${results.length - failedPages.length} ok, ${failedPages.length} failed${failedPages.length ? ` ${JSON.stringify(statusCounts)}` : ''}; latency p50 ${latency.p50} ms, p95 ${latency.p95} ms, max ${latency.max} ms; ${latency.throughput} pages/s`,
  );
  L.push(
    `(a failed page counts as an empty answer in every field below; 1-minute load average at the end ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores)`,
  );
  L.push(`every figure: the validation half first, then the tuning half and the gap (tuning minus validation, points)`, '');
  L.push(...figureLines(figures));
  const confusions = figures.tuning.classes.topConfusions;
  if (confusions.length)
    L.push(
      '',
      `commonest IAB tier-1 confusions, tuning half: ${confusions
        .slice(0, 6)
        .map((c) => `${c.expected}->${c.predicted} x${c.count}`)
        .join(', ')}`,
    );
  const misses = (h: Half): string =>
    Object.entries(figures[h].emailMisses)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  L.push(
    '',
    `emails missed on contact pages, by where the page has them (annotated text, a mailto in the HTML, a mailto only a script writes): validation ${misses('validation')}; tuning ${misses('tuning')}`,
  );
  if (localFallbacks.length) L.push('', `asked again at 127.0.0.2 after their live host failed (HSTS preload): ${localFallbacks.join(', ')}`);
  if (failedPages.length) {
    L.push('', 'failed pages (first 10):');
    for (const f of failedPages.slice(0, 10)) L.push(`  ${f.record.page_id} ${f.status}: ${(f.error ?? '').slice(0, 160)}`);
  }
  say(L.join('\n'));

  const outDir = join(REPO_ROOT, 'test/eval/results');
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, 'eval.json');
  const json = {
    ranAt: new Date().toISOString(),
    corpus: dir,
    pages: results.length,
    corpusPages: all.length,
    sampled: results.length < all.length,
    concurrency: config.EVAL_CONCURRENCY,
    params: ENRICH_PARAMS,
    durationS: Math.round((performance.now() - started) / 1000),
    loadAverageAtEnd: loadavg()[0],
    latency,
    failed: { count: failedPages.length, statuses: statusCounts },
    halves: { tuning: figuresJson(figures.tuning), validation: figuresJson(figures.validation) },
    perPage,
  };
  writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
  say(`\nwrote ${relative(process.cwd(), out)}`);
} catch (err) {
  failed = true;
  process.stderr.write(`\neval failed: ${(err as Error).stack ?? String(err)}\n`);
  if (dataDir) process.stderr.write(`service logs kept in ${join(dataDir, 'logs')}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
}

// ---- scoring helpers -------------------------------------------------------------------------

type Rate = { right: number; total: number };
interface HalfFigures {
  /** readabilityBrand: brand_name against the publication's name (the site-name truth of an article). */
  names: { mainPages: Rate; allBusinessPages: Rate; readabilitySiteName: Rate; readabilityBrand: Rate };
  legal: Counts;
  /** As `legal`, the hand labels' stated legal names counted as truth too (score-company.ts). */
  legalWithLabels: Counts;
  /** Is `name` the legal name the page states (corpus legal_names or the hand labels): the issue's "legal name where one is stated". */
  statedLegal: Rate;
  emails: Counts;
  /** Missed contact-page emails by where the page has them, and the pages that missed any (or answered none). */
  emailMisses: { annotated: number; markup: number; script: number; pages: number; pagesAnsweringNone: number };
  addresses: Counts;
  /** Address recall per page, summed (right) over the pages with annotated addresses (total): the target's figure. */
  addressesPerPage: Rate;
  classes: ReturnType<typeof summarizeClassifications>;
  /** The readability articles against their topic labels (labels/article-topics.jsonl). */
  articleClasses: ReturnType<typeof summarizeClassifications>;
  brand: ReturnType<typeof summariseBrand>;
}

/** Every scored figure over one half's results (a failed page counts as an empty answer). */
function scoreResults(results: readonly PageResult[]): HalfFigures {
  const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });
  const add = (into: Counts, c: Counts | undefined): void => {
    if (!c) return;
    into.tp += c.tp;
    into.fp += c.fp;
    into.fn += c.fn;
  };
  const rate = (): Rate => ({ right: 0, total: 0 });
  const f = {
    names: { mainPages: rate(), allBusinessPages: rate(), readabilitySiteName: rate(), readabilityBrand: rate() },
    legal: zero(),
    legalWithLabels: zero(),
    statedLegal: rate(),
    emails: zero(),
    /** Missed emails by where the page has them: annotated text, a label's mailto in the HTML, or one only a script writes. */
    emailMisses: { annotated: 0, markup: 0, script: 0, pages: 0, pagesAnsweringNone: 0 },
    addresses: zero(),
    addressesPerPage: rate(),
  };
  const classRows: { truth: ClassifyTruth; got: Pick<Classification, 'iab_id' | 'iab_parent_id'> }[] = [];
  const articleRows: typeof classRows = [];
  const brandVerdicts: BrandVerdicts[] = [];
  for (const res of results) {
    const r = res.record;
    const s: CompanyScore = scoreCompany(withEmailLabels(r.gt, emailLabels.get(r.page_id)), res.data?.company ?? EMPTY_COMPANY);
    if (s.name) {
      const bump = (x: Rate): void => {
        x.total++;
        if (s.name!.correct) x.right++;
      };
      if (r.source === 'readability') {
        bump(f.names.readabilitySiteName);
        f.names.readabilityBrand.total++;
        if (s.brand?.correct) f.names.readabilityBrand.right++;
      } else {
        bump(f.names.allBusinessPages);
        if (r.page_role === 'main') bump(f.names.mainPages);
      }
    }
    if (r.source.startsWith('webstruct')) {
      add(f.legal, s.legalNames);
      add(f.legalWithLabels, s.legalNamesWithLabels);
    }
    if (s.statedLegal) {
      f.statedLegal.total++;
      if (s.statedLegal.correct) f.statedLegal.right++;
    }
    // As in offline-company.ts: emails are annotated on contact pages of the webstruct-contact set.
    if (r.page_role === 'contact') {
      add(f.emails, s.emails);
      const lower = (xs: readonly string[] | undefined): string[] => (xs ?? []).map((e) => e.toLowerCase());
      const missed = s.emails?.falseNegatives ?? [];
      if (missed.length) {
        f.emailMisses.pages++;
        if (!res.data?.company.emails.length) f.emailMisses.pagesAnsweringNone++;
      }
      for (const e of missed.map((x) => x.toLowerCase())) {
        if (lower(r.gt.emails ?? undefined).includes(e)) f.emailMisses.annotated++;
        else if (lower(emailsInMarkup.get(r.page_id)).includes(e)) f.emailMisses.markup++;
        else f.emailMisses.script++;
      }
    }
    add(f.addresses, s.addresses);
    if (s.addresses && s.addresses.tp + s.addresses.fn > 0) {
      f.addressesPerPage.right += s.addresses.tp / (s.addresses.tp + s.addresses.fn);
      f.addressesPerPage.total++;
    }
    const ct = classifyTruth(r);
    if (ct) classRows.push({ truth: ct, got: res.data?.classification ?? { iab_id: '', iab_parent_id: '' } });
    const topic = articleTopics.get(r.page_id);
    if (topic) articleRows.push({ truth: topic, got: res.data?.classification ?? { iab_id: '', iab_parent_id: '' } });
    brandVerdicts.push(scoreBrand(r as BrandTruth, res.data ?? EMPTY_BRAND, logoLabels.get(r.page_id)));
  }
  return { ...f, classes: summarizeClassifications(classRows), articleClasses: summarizeClassifications(articleRows), brand: summariseBrand(brandVerdicts) };
}

/** The printed table: one formatHalves line per figure (validation, tuning, gap). */
function figureLines(h: Record<Half, HalfFigures>): string[] {
  const lines: string[] = [];
  const both = (label: string, pick: (f: HalfFigures) => Rate): void =>
    void lines.push(formatHalves(label, { tuning: pick(h.tuning), validation: pick(h.validation) }));
  const precision = (c: Counts): Rate => ({ right: c.tp, total: c.tp + c.fp });
  const recall = (c: Counts): Rate => ({ right: c.tp, total: c.tp + c.fn });
  both('company name, main pages', (f) => f.names.mainPages);
  both('company name, all webstruct pages', (f) => f.names.allBusinessPages);
  both('site name = name, readability articles', (f) => f.names.readabilitySiteName);
  both('site name = brand_name, readability', (f) => f.names.readabilityBrand);
  both('legal name where stated (corpus+labels)', (f) => f.statedLegal);
  both('legal name precision (webstruct)', (f) => precision(f.legal));
  both('legal name recall (webstruct)', (f) => recall(f.legal));
  both('legal name precision (webstruct+labels)', (f) => precision(f.legalWithLabels));
  both('emails precision (contact pages)', (f) => precision(f.emails));
  both('emails recall (contact pages)', (f) => recall(f.emails));
  both('addresses precision', (f) => precision(f.addresses));
  both('addresses recall', (f) => recall(f.addresses));
  both('addresses recall averaged over pages', (f) => f.addressesPerPage);
  both('IAB tier-1', (f) => ({ right: Math.round(f.classes.tier1Accuracy * f.classes.pages), total: f.classes.pages }));
  both('IAB tier-2 (exact id)', (f) => ({ right: Math.round(f.classes.tier2Accuracy * f.classes.pages), total: f.classes.pages }));
  both('IAB tier-1, articles (topic labels)', (f) => ({
    right: Math.round(f.articleClasses.tier1Accuracy * f.articleClasses.pages),
    total: f.articleClasses.pages,
  }));
  both('IAB tier-2, articles (topic labels)', (f) => ({
    right: Math.round(f.articleClasses.tier2Accuracy * f.articleClasses.pages),
    total: f.articleClasses.pages,
  }));
  lines.push('', 'brand fields (found: share of all pages with a value; correct: where the corpus or a label file has truth)');
  for (const field of h.tuning.brand.map((b) => b.field)) {
    const of = (f: HalfFigures) => f.brand.find((b) => b.field === field) ?? { n: 0, found: 0, withTruth: 0, correct: 0 };
    both(`  ${field} found`, (f) => ({ right: of(f).found, total: of(f).n }));
    if (of(h.tuning).withTruth + of(h.validation).withTruth > 0) both(`  ${field} correct`, (f) => ({ right: of(f).correct, total: of(f).withTruth }));
  }
  return lines;
}

function figuresJson(f: HalfFigures): unknown {
  return {
    company: {
      nameMainPages: f.names.mainPages,
      nameAllWebstructPages: f.names.allBusinessPages,
      siteNameReadability: f.names.readabilitySiteName,
      siteNameReadabilityBrand: f.names.readabilityBrand,
      legalNames: { ...f.legal, ...precisionRecall(f.legal) },
      legalNamesWithLabels: { ...f.legalWithLabels, ...precisionRecall(f.legalWithLabels) },
      legalNameWhereStated: f.statedLegal,
      emails: { ...f.emails, ...precisionRecall(f.emails) },
      addresses: {
        ...f.addresses,
        ...precisionRecall(f.addresses),
        recallAveragedOverPages: f.addressesPerPage.total ? f.addressesPerPage.right / f.addressesPerPage.total : null,
      },
    },
    classification: f.classes,
    articleClassification: f.articleClasses,
    brand: f.brand,
  };
}

/**
 * One page's line in eval.json. A validation page's line holds no answer and no verdict (only its
 * status and time): its failures are counted in the figures, never shown, so nobody reads them by
 * accident while looking at a tuning page.
 */
function pageLine(res: PageResult): unknown {
  const r = res.record;
  if (halfOf(r) === 'validation') return { page_id: r.page_id, half: 'validation', status: res.status, ms: Math.round(res.ms) };
  const company = res.data?.company ?? EMPTY_COMPANY;
  const s = scoreCompany(withEmailLabels(r.gt, emailLabels.get(r.page_id)), company);
  const ct = classifyTruth(r) ?? articleTopics.get(r.page_id) ?? null;
  const cls = res.data?.classification;
  return {
    page_id: r.page_id,
    half: halfOf(r),
    status: res.status,
    ms: Math.round(res.ms),
    ...(res.error ? { error: res.error.slice(0, 300) } : {}),
    company: res.data ? { name: company.name, emails: company.emails, addresses: company.addresses, sources: company.sources } : null,
    expected_name: r.gt.company_name ?? null,
    name_correct: s.name?.correct ?? null,
    iab: cls ? { got: cls.iab_id, want: ct?.iab ?? null } : null,
    logo: res.data?.logos.primary ? { source: res.data.logos.primary.source, url: res.data.logos.primary.url.slice(0, 160) } : null,
    known_logo_found: res.data ? knownLogoFound(logoLabels.get(r.page_id), res.data.logos) : null,
    social: res.data?.social_links ?? null,
  };
}
