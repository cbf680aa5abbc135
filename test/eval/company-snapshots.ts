/**
 * Where the company analyzer's emails differ between a real browser snapshot and the static one:
 *   .tools/node/bin/node test/eval/company-snapshots.ts [--page=wsc-7] [--all] [--dump=DIR]
 * Renders the webstruct contact pages with annotated emails (--all: every page; --page: one) in the real renderer,
 * in-process and without NATS, from 127.0.0.2, runs analyzeCompany on that snapshot and on
 * snapshotFromHtml of the same bytes, and prints the emails only one of them finds, scored against
 * the annotations. --dump writes each real snapshot as JSON for a closer look.
 * --names: instead, every TUNING-half main page (never a validation page), rendered as /enrich renders
 * it (under its live domain resolved to the page server, scripts and visuals on), and company.name of
 * the rendered and the static snapshot scored against the truth; prints the pages where they differ
 * and the totals (with --all: every tuning page with a company name). The names are scored as the
 * evals score them (corpus truth plus the stated-legal-name labels).
 * --candidates: as --names, and also the name candidates only one of the two snapshots yields (how a
 * rendered page read as windows-1252 was found, 2026-11-26: "Â©" holders on the rendered side).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Snapshot } from '@enrich/shared/contracts';
import { domainLabel, registrableDomain } from '@enrich/shared/page';
import { createLogger } from '@enrich/shared/runtime';
import { analyzeCompany } from '../../services/company/src/analyze.ts';
import { readPageEvidence } from '../../services/company/src/page-evidence.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';
import { createRenderer } from '../../services/renderer/src/service.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { corpusDir, corpusPresent, loadRecords, serveCorpusPages } from './corpus.ts';
import { decodePage, scoreCompany, withStatedLegalNames } from './score-company.ts';
import { halfOf, siteOf } from './split.ts';

const REPO = join(import.meta.dirname, '../..');
const dir = corpusDir(REPO, undefined);
if (!corpusPresent(dir)) {
  console.log(`skipped: no corpus at ${dir}`);
  process.exit(0);
}
const only = process.argv.find((a) => a.startsWith('--page='))?.slice(7);
const dump = process.argv.find((a) => a.startsWith('--dump='))?.slice(7);
const all = process.argv.includes('--all');
const names = process.argv.includes('--names') || process.argv.includes('--candidates');
const candidates = process.argv.includes('--candidates');
// Validation pages are never rendered here: they are for measuring, not for looking at.
const records = withStatedLegalNames(loadRecords(dir), dir, siteOf)
  .filter((r) => halfOf(r) === 'tuning')
  .filter((r) =>
    only ? r.page_id === only : names ? (all || r.page_role === 'main') && !!r.gt.company_name : all || (r.page_role === 'contact' && r.gt.emails_annotated),
  );

const log = createLogger('company-snapshots', 'warn');
const renderer = createRenderer({
  config: loadRendererConfig({
    ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
    SCREENSHOT_DIR: '/tmp/company-snapshots-shots',
    ...(names ? { RESOLVE_OVERRIDES: '*=127.0.0.2' } : {}),
  }),
  log,
});
const pages = await serveCorpusPages(dir, '127.0.0.2', names);
const nameTotals = { real: 0, static: 0, total: 0 };
if (dump) mkdirSync(dump, { recursive: true });
try {
  for (const r of records) {
    const renderAt = (at: string) =>
      renderer.render(
        { requestId: randomUUID(), url: at, viewport: { width: 1280, height: 800 }, screenshot: null, snapshot: true, scripts: names, visuals: names },
        { deadline: Date.now() + 30_000, signal: new AbortController().signal, log },
      );
    let url = pages.urlOf(r);
    // Hosts on Chromium's HSTS preload list are forced to https, which the page server does not answer here: asked at its own address.
    const res = await renderAt(url).catch(() => renderAt((url = pages.urlOf(r, true))));
    const real = res.snapshot as Snapshot;
    if (dump) writeFileSync(join(dump, `${r.page_id}.json`), JSON.stringify(real, null, 1));
    const fromHtml = snapshotFromHtml(decodePage(readFileSync(join(dir, r.html))), url);
    const ask = (s: Snapshot) => analyzeCompany({ requestId: randomUUID(), snapshot: s, extraSnapshots: [] }).data;
    const a = ask(real);
    const b = ask(fromHtml);
    if (names) {
      const okReal = !!scoreCompany(r.gt, a).name?.correct;
      const okStatic = !!scoreCompany(r.gt, b).name?.correct;
      nameTotals.total++;
      nameTotals.real += Number(okReal);
      nameTotals.static += Number(okStatic);
      if (a.name !== b.name || only)
        console.log(`${r.page_id} ${okReal ? 'ok' : 'XX'}/${okStatic ? 'ok' : 'XX'}: real "${a.name}" static "${b.name}" expected "${r.gt.company_name}"`);
      if (candidates) {
        // The name candidates only one of the two snapshots yields: where the two readings of one page differ.
        const label = domainLabel(registrableDomain(real.finalUrl || url));
        const said = (snap: Snapshot) => new Set(readPageEvidence(snap, label).names.map((c) => `${c.source}:${c.name}`));
        const [inReal, inStatic] = [said(real), said(fromHtml)];
        const onlyReal = [...inReal].filter((c) => !inStatic.has(c));
        const onlyStatic = [...inStatic].filter((c) => !inReal.has(c));
        if (onlyReal.length || onlyStatic.length)
          console.log(`${r.page_id} candidates: real-only [${onlyReal.join(' | ')}] static-only [${onlyStatic.join(' | ')}]`);
      }
      continue;
    }
    const onlyReal = a.emails.filter((e) => !b.emails.includes(e));
    const onlyStatic = b.emails.filter((e) => !a.emails.includes(e));
    const fp = scoreCompany(r.gt, a).emails?.falsePositives ?? [];
    const mark = (e: string): string => (fp.includes(e) ? `${e} (unannotated)` : e);
    if (onlyReal.length || onlyStatic.length || only) {
      console.log(`${r.page_id}: real-only [${onlyReal.map(mark).join(', ')}] static-only [${onlyStatic.join(', ')}]`);
    }
  }
  if (names) console.log(`company.name, tuning main pages: rendered ${nameTotals.real}/${nameTotals.total}, static ${nameTotals.static}/${nameTotals.total}`);
} finally {
  await pages.close();
  await renderer.close();
}
