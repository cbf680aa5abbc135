/**
 * Where the company analyzer's emails differ between a real browser snapshot and the static one:
 *   .tools/node/bin/node test/eval/company-snapshots.ts [--page=wsc-7] [--all] [--dump=DIR]
 * Renders the webstruct contact pages with annotated emails (--all: every page; --page: one) in the real renderer,
 * in-process and without NATS, from 127.0.0.2, runs analyzeCompany on that snapshot and on
 * snapshotFromHtml of the same bytes, and prints the emails only one of them finds, scored against
 * the annotations. --dump writes each real snapshot as JSON for a closer look.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Snapshot } from '@enrich/shared/contracts';
import { createLogger } from '@enrich/shared/runtime';
import { analyzeCompany } from '../../services/company/src/analyze.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';
import { createRenderer } from '../../services/renderer/src/service.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { corpusDir, corpusPresent, loadRecords, serveCorpusPages } from './corpus.ts';
import { scoreCompany } from './score-company.ts';

const REPO = join(import.meta.dirname, '../..');
const dir = corpusDir(REPO, undefined);
if (!corpusPresent(dir)) {
  console.log(`skipped: no corpus at ${dir}`);
  process.exit(0);
}
const only = process.argv.find((a) => a.startsWith('--page='))?.slice(7);
const dump = process.argv.find((a) => a.startsWith('--dump='))?.slice(7);
const all = process.argv.includes('--all');
const records = loadRecords(dir).filter((r) => (only ? r.page_id === only : all || (r.page_role === 'contact' && r.gt.emails_annotated)));

function decodePage(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const log = createLogger('company-snapshots', 'warn');
const renderer = createRenderer({ config: loadRendererConfig({ ALLOW_PRIVATE_TARGETS: '127.0.0.2/32', SCREENSHOT_DIR: '/tmp/company-snapshots-shots' }), log });
const pages = await serveCorpusPages(dir);
if (dump) mkdirSync(dump, { recursive: true });
try {
  for (const r of records) {
    const url = pages.urlOf(r);
    const res = await renderer.render(
      { requestId: randomUUID(), url, viewport: { width: 1280, height: 800 }, screenshot: null, snapshot: true, scripts: false, visuals: false },
      { deadline: Date.now() + 30_000, signal: new AbortController().signal, log },
    );
    const real = res.snapshot as Snapshot;
    if (dump) writeFileSync(join(dump, `${r.page_id}.json`), JSON.stringify(real, null, 1));
    const fromHtml = snapshotFromHtml(decodePage(readFileSync(join(dir, r.html))), url);
    const ask = (s: Snapshot) => analyzeCompany({ requestId: randomUUID(), snapshot: s, extraSnapshots: [] }).data;
    const a = ask(real);
    const b = ask(fromHtml);
    const onlyReal = a.emails.filter((e) => !b.emails.includes(e));
    const onlyStatic = b.emails.filter((e) => !a.emails.includes(e));
    const fp = scoreCompany(r.gt, a).emails?.falsePositives ?? [];
    const mark = (e: string): string => (fp.includes(e) ? `${e} (unannotated)` : e);
    if (onlyReal.length || onlyStatic.length || only) {
      console.log(`${r.page_id}: real-only [${onlyReal.map(mark).join(', ')}] static-only [${onlyStatic.join(', ')}]`);
    }
  }
} finally {
  await pages.close();
  await renderer.close();
}
