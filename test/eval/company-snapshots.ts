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
 * --email-misses: every contact page of BOTH halves with emails to find (annotated, or a script-written
 * mailto of labels/emails.jsonl), rendered as /enrich renders it; each email the analyzer misses is
 * counted by where the rendered snapshot has it (a mailto link, the HTML, the visible text, nowhere).
 * Counts only, per half: which step loses them, without showing a validation page.
 * --candidates: as --names, and also the name candidates only one of the two snapshots yields (how a
 * rendered page read as windows-1252 was found, 2026-11-26: "Â©" holders on the rendered side).
 * --name-misses: every main page of BOTH halves with a company name, rendered as /enrich renders it;
 * each company.name miss is counted by how ours relates to the expected name and whether the rendered
 * and the static snapshot agree, and where the expected name is a candidate; where the static snapshot
 * is right, also which sources give our name and the expected one on each side. Counts only, per half.
 * --logo-misses: every main page of BOTH halves with a labelled logo (labels/logos.jsonl), rendered as
 * /enrich renders it; where the brand analyzer reports none of the known logos, the miss is counted by
 * what the rendered snapshot has of it (an <img> and its ranking signals, a CSS background, only the
 * HTML, nothing) and what was reported instead. Counts only, per half; tuning misses also by page.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Snapshot } from '@enrich/shared/contracts';
import { domainLabel, registrableDomain } from '@enrich/shared/page';
import { createLogger } from '@enrich/shared/runtime';
import { analyzeBrand } from '../../services/brand/src/analyze.ts';
import { isTrackingImage, rankLogoCandidates, scoreElement, siteIcons } from '@enrich/shared/logos';
import { brandNames, metaContent, microdataLogos, organizationFacts } from '@enrich/shared/page';
import { analyzeCompany } from '../../services/company/src/analyze.ts';
import { cleanEmail, emailsFromAnchors, findEmailsInText } from '../../services/company/src/emails.ts';
import { readPageEvidence } from '../../services/company/src/page-evidence.ts';
import { loadRendererConfig } from '../../services/renderer/src/config.ts';
import { createRenderer } from '../../services/renderer/src/service.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { corpusDir, corpusPresent, loadRecords, serveCorpusPages } from './corpus.ts';
import { comparableUrl, knownLogoFound, loadLogoLabels } from './score-brand.ts';
import { decodePage, loadEmailLabels, normaliseCompanyName, scoreCompany, withEmailLabels, withStatedLegalNames } from './score-company.ts';
import { legalFormOf } from '../../services/company/src/legal-forms.ts';
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
const emailMisses = process.argv.includes('--email-misses');
const logoMisses = process.argv.includes('--logo-misses');
const nameMisses = process.argv.includes('--name-misses');
const logoLabels = loadLogoLabels();
const renderedEmails = loadEmailLabels('rendered');

/** Which of cleanEmail's rules an address fails, told apart from the outside (its rules are private). */
function rejection(email: string): string {
  const at = email.lastIndexOf('@');
  const [local, domain] = [email.slice(0, at), email.slice(at + 1)];
  if (/[^\x00-\x7f]/.test(domain)) return 'a non-ASCII domain';
  if (/[^\x00-\x7f]/.test(local)) return 'a non-ASCII local part';
  if (!/^[a-z0-9_%+'.-]+$/.test(local)) return 'a character outside the local-part set';
  if (!/\.[a-z]{2,24}$/.test(domain)) return 'an unusual top-level domain';
  if (cleanEmail(`info@${domain}`) === null) return 'a junk or file domain';
  if (cleanEmail(`${local}@acme-widgets.com`) === null) return 'a junk local part';
  return 'another rule';
}

/** Where in the HTML an address sits that is neither a link's target nor shown text. */
function htmlPlace(html: string, email: string): string {
  const at = html.indexOf(email);
  const before = html.slice(0, at);
  if (before.lastIndexOf('<!--') > before.lastIndexOf('-->')) return 'in a comment';
  if (before.lastIndexOf('<script') > before.lastIndexOf('</script')) return 'in a script';
  if (before.lastIndexOf('<style') > before.lastIndexOf('</style')) return 'in a style';
  if (before.lastIndexOf('<') > before.lastIndexOf('>'))
    return `in an attribute of <${/^<([a-z0-9-]+)/.exec(before.slice(before.lastIndexOf('<')))?.[1] ?? '?'}>`;
  const inside = ['noscript', 'template', 'textarea', 'select', 'svg', 'head', 'title'].filter(
    (t) => before.lastIndexOf(`<${t}`) > before.lastIndexOf(`</${t}`),
  );
  const found = findEmailsInText(html.slice(Math.max(0, at - 80), at + email.length + 80).replace(/<[^>]*>/g, ' '));
  return `in a text node${inside.length ? ` inside <${inside.join('> <')}>` : ''}${cleanEmail(email) === null ? `, which cleanEmail rejects (${rejection(email)})` : ''}${found.some((f) => cleanEmail(f) === email) ? ', found by the text scan around it' : ', not found by the text scan around it'}`;
}

/** Which step loses an email that a snapshot's link has: the link's reading, or the address check (and which rule). */
function linkLoss(anchor: Snapshot['anchors'][number], email: string): string {
  if (!/^mailto:/i.test(anchor.href)) return `not a mailto link (${anchor.href.split(':')[0]} scheme)`;
  const read = emailsFromAnchors([anchor]).map((f) => f.email);
  if (!read.some((r) => r.toLowerCase().includes(email))) return 'the mailto reading loses it';
  const cleaned = read.map(cleanEmail);
  if (cleaned.includes(email)) return 'read and kept by cleanEmail: lost later';
  if (cleaned.some((c) => c !== null)) return 'cleanEmail gives another address';
  const raw = read.find((r) => r.toLowerCase().includes(email))!;
  const local = email.slice(0, email.lastIndexOf('@'));
  return `cleanEmail rejects it (${raw.trim().toLowerCase() !== email ? 'extra characters around it' : local.length > 64 ? 'long local part' : 'a junk or file rule'})`;
}
/** What a rendered snapshot has of a page's known logo and how the ranking read it: categories, no URLs. */
function logoMissKind(snap: Snapshot, known: readonly string[], reported: string): string {
  const keys = new Set(known.map(comparableUrl));
  const ranking = rankLogoCandidates(snap);
  const rank = ranking.candidates.findIndex((c) => keys.has(comparableUrl(c.url)));
  const img = snap.images.find((i) => keys.has(comparableUrl(i.src)));
  const instead = `; reported instead: ${reported}`;
  if (img) {
    const facts = {
      finalUrl: snap.finalUrl,
      images: snap.images,
      svgs: snap.svgs,
      viewport: snap.viewport,
      brandNames: brandNames(snap),
      jsonLdLogos: organizationFacts(snap).logos,
      microdataLogos: microdataLogos(snap.html, snap.finalUrl),
      metaLogo: metaContent(snap, 'og:logo', 'logo'),
      icons: siteIcons(snap.links, snap.resources, snap.siteIcons),
    };
    const file = (() => {
      try {
        return decodeURIComponent(new URL(img.src).pathname.split('/').pop() ?? '');
      } catch {
        return '';
      }
    })();
    const size =
      img.box && img.box.width > 0 ? { w: img.box.width, h: img.box.height } : img.naturalWidth > 0 ? { w: img.naturalWidth, h: img.naturalHeight } : null;
    const { raw, signals } = scoreElement({ ...img, file, size, kind: img.kind }, facts);
    const bucket = raw >= 2.5 ? '>= 2.5' : raw >= 1 ? '1 to 2.5' : raw >= -1 ? '-1 to 1' : '< -1';
    // The ranking's other two verdicts on an image: a tracking pixel, a member of a strip of look-alikes.
    const outside = snap.images.filter((i) => i.region !== 'header' && i.region !== 'nav');
    const hints = img.ancestorHints.trim();
    const sameHints = hints ? outside.filter((i) => i.ancestorHints.trim() === hints).length : 0;
    const row = (i: (typeof snap.images)[number]): string => (i.box && i.box.height > 0 ? `${Math.round(i.box.y / 20)}:${Math.round(i.box.height / 8)}` : '');
    const sameRow = row(img) ? outside.filter((i) => row(i) === row(img)).length : 0;
    const strip =
      img.region !== 'header' && img.region !== 'nav' && (sameHints >= 3 || sameRow >= 3)
        ? `, in a strip (${sameHints >= 3 ? `${sameHints} with its ancestors` : ''}${sameHints >= 3 && sameRow >= 3 ? ', ' : ''}${sameRow >= 3 ? `${sameRow} on its row` : ''})`
        : '';
    const tracking = isTrackingImage(img) ? ', a tracking pixel' : '';
    const box = img.box ? (img.box.width > 0 && img.box.height > 0 ? 'a box' : 'an empty box') : 'no box';
    return `an ${img.kind === 'background' ? 'CSS background' : '<img>'} (${img.region}, ${box}, ${img.visible ? 'visible' : 'hidden'}), ${rank >= 0 ? `candidate ${rank + 1}` : 'no candidate'}, raw ${bucket}${strip}${tracking}, signals ${signals.sort().join(',') || 'none'}${instead}`;
  }
  if (rank >= 0) return `a declared logo or icon, candidate ${rank + 1}${instead}`;
  const html = snap.html.toLowerCase();
  const inHtml = known.some((u) => {
    try {
      return html.includes(new URL(u).pathname.toLowerCase());
    } catch {
      return false;
    }
  });
  return `${inHtml ? 'in the rendered HTML, not an image of the snapshot' : 'not in the rendered HTML'}${instead}`;
}

// Validation pages are rendered here only for --email-misses and --logo-misses, whose output for them is counts.
const records = withStatedLegalNames(loadRecords(dir), dir, siteOf)
  .filter((r) => halfOf(r) === 'tuning' || emailMisses || logoMisses || nameMisses)
  .filter((r) =>
    nameMisses
      ? r.page_role === 'main' && !!r.gt.company_name
      : logoMisses
        ? r.page_role === 'main' && !!logoLabels.get(r.page_id)?.logos.length
        : emailMisses
          ? r.page_role === 'contact' && (!!r.gt.emails?.length || !!renderedEmails.get(r.page_id)?.length)
          : only
            ? r.page_id === only
            : names
              ? (all || r.page_role === 'main') && !!r.gt.company_name
              : all || (r.page_role === 'contact' && r.gt.emails_annotated),
  );

const log = createLogger('company-snapshots', 'warn');
const renderer = createRenderer({
  config: loadRendererConfig({
    ALLOW_PRIVATE_TARGETS: '127.0.0.2/32',
    SCREENSHOT_DIR: '/tmp/company-snapshots-shots',
    ...(names || emailMisses || logoMisses || nameMisses ? { RESOLVE_OVERRIDES: '*=127.0.0.2' } : {}),
  }),
  log,
});
const live = names || emailMisses || logoMisses || nameMisses;
const pages = await serveCorpusPages(dir, '127.0.0.2', live);
const nameTotals = { real: 0, static: 0, total: 0 };
const missKinds: Record<'tuning' | 'validation', Map<string, number>> = { tuning: new Map(), validation: new Map() };
if (dump) mkdirSync(dump, { recursive: true });
try {
  for (const r of records) {
    const renderAt = (at: string) =>
      renderer.render(
        { requestId: randomUUID(), url: at, viewport: { width: 1280, height: 800 }, screenshot: null, snapshot: true, scripts: live, visuals: live },
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
    if (nameMisses) {
      const half = halfOf(r);
      const verdict = scoreCompany(r.gt, a).name;
      if (!verdict || verdict.correct) continue;
      const staticRight = !!scoreCompany(r.gt, b).name?.correct;
      const label = domainLabel(registrableDomain(real.finalUrl || url));
      const key = (t: string): string => normaliseCompanyName(t);
      const [p, e] = [key(a.name), key(r.gt.company_name!)];
      const relation = !p ? 'no name' : p.includes(e) ? 'ours contains the expected' : e.includes(p) ? 'the expected contains ours' : 'another name';
      // The sources of a name's candidates in one snapshot: where the rendered and the static reading
      // part (counts only).
      const sourcesOf = (s: Snapshot, name: string): string => {
        const found = [
          ...new Set(
            readPageEvidence(s, label)
              .names.filter((c) => key(c.name) === name)
              .map((c) => c.source),
          ),
        ].sort();
        return found.length ? found.join('/') : 'none';
      };
      const from = sourcesOf(real, e);
      const parted = staticRight
        ? `; ours from ${sourcesOf(real, p)} rendered, ${sourcesOf(fromHtml, p)} static; expected from ${sourcesOf(fromHtml, e)} static`
        : '';
      const kind = `${relation}${legalFormOf(a.name) ? ' (ours with a legal form)' : ''}; static snapshot ${staticRight ? 'right' : 'wrong too'}; expected ${from === 'none' ? 'no candidate' : `a candidate from ${from}`}${parted}`;
      missKinds[half].set(kind, (missKinds[half].get(kind) ?? 0) + 1);
      if (half === 'tuning') console.log(`${r.page_id}: "${a.name}" expected "${r.gt.company_name}": ${kind}`);
      continue;
    }
    if (logoMisses) {
      const half = halfOf(r);
      const label = logoLabels.get(r.page_id)!;
      const out = await analyzeBrand({
        requestId: randomUUID(),
        snapshot: real,
        screenshotUrl: '',
        options: { screenshotColors: null, css: false, html: false, javascript: false },
      });
      if (knownLogoFound(label, out.logos) !== false) continue;
      const kind = logoMissKind(
        real,
        label.logos,
        out.logos.primary ? `${out.logos.primary.source} (score ${out.logos.primary.score >= 0.5 ? '>=' : '<'} 0.5)` : 'none',
      );
      missKinds[half].set(kind, (missKinds[half].get(kind) ?? 0) + 1);
      if (half === 'tuning') console.log(`${r.page_id}: ${kind}`);
      continue;
    }
    if (emailMisses) {
      const half = halfOf(r);
      const missed = scoreCompany(withEmailLabels(r.gt, renderedEmails.get(r.page_id)), a).emails?.falseNegatives ?? [];
      const html = real.html.toLowerCase();
      const text = [real.text.visible, real.text.header, real.text.footer].join('\n').toLowerCase();
      for (const e of missed.map((x) => x.toLowerCase())) {
        const anchor = real.anchors.find((x) => x.href.toLowerCase().includes(e));
        const where = anchor
          ? `in a link of the snapshot: ${linkLoss(anchor, e)}${a.emails.includes(e) ? ', and in the analyzer output' : ''}${a.emails.length > 20 ? `, beside ${a.emails.length} answered` : ''}`
          : html.includes(e)
            ? `in the snapshot HTML: ${htmlPlace(html, e)}`
            : text.includes(e)
              ? 'in the snapshot text'
              : readFileSync(join(dir, r.html), 'latin1').toLowerCase().includes(e)
                ? 'not in the snapshot; in the saved page as written'
                : 'not in the snapshot nor in the saved page as written';
        missKinds[half].set(where, (missKinds[half].get(where) ?? 0) + 1);
        if (half === 'tuning') console.log(`${r.page_id}: missed ${e} (${where})`);
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
  if (nameMisses)
    for (const half of ['validation', 'tuning'] as const) {
      console.log(`${half}: company.name misses on main pages, by kind:`);
      for (const [kind, n] of [...missKinds[half]].sort((x, y) => y[1] - x[1])) console.log(`  ${n}  ${kind}`);
    }
  if (logoMisses)
    for (const half of ['validation', 'tuning'] as const) {
      console.log(`${half}: known-logo misses by what the rendered snapshot has of the logo:`);
      for (const [kind, n] of [...missKinds[half]].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${kind}`);
    }
  if (emailMisses)
    for (const half of ['validation', 'tuning'] as const)
      console.log(`${half}: missed emails by where the rendered snapshot has them: ${JSON.stringify(Object.fromEntries(missKinds[half]))}`);
  if (names) console.log(`company.name, tuning main pages: rendered ${nameTotals.real}/${nameTotals.total}, static ${nameTotals.static}/${nameTotals.total}`);
} finally {
  await pages.close();
  await renderer.close();
}
