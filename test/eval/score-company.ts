/**
 * Pure scoring of the company analyzer against the corpus ground truth: per field true positives,
 * false positives and false negatives. Comparison is on normalised strings because the annotated
 * text sometimes lost or gained spaces ("AveSuite", "Be echRd.").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanyData } from '@enrich/shared/contracts';
import { hasStrongLegalForm, legalFormOf, stripLegalForm } from '../../services/company/src/legal-forms.ts';

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/** The subset of a ground-truth record the company scoring reads. */
export interface CompanyTruth {
  company_name?: string | null;
  legal_names?: string[] | null;
  /**
   * Legal names the page states, from test/eval/labels/legal-names.jsonl (hand labels where the corpus
   * has none); with legal_names they are what "legal name where one is stated" is scored against.
   */
  stated_legal_names?: string[];
  emails?: string[] | null;
  emails_annotated?: boolean;
  addresses?: Array<{ full: string } | string> | null;
  contact_annotated?: boolean;
}

export interface FieldScore extends Counts {
  /** Predictions that matched nothing and truths that were missed, for the failure report. */
  falsePositives: string[];
  falseNegatives: string[];
}

export interface CompanyScore {
  /** Present only when the truth names the owner. */
  name?: { correct: boolean; predicted: string; expected: string };
  /** Present when the truth names the owner: does brand_name name the organisation. */
  brand?: { correct: boolean; predicted: string };
  /** Present when the page states a legal name (corpus legal_names or labels): is `name` that legal name. */
  statedLegal?: { correct: boolean; predicted: string; expected: string[] };
  legalNames?: FieldScore;
  /**
   * As legalNames, with the legal names the hand labels say the page states counted as truth too
   * (test/eval/labels): the corpus annotates some pages' stated legal entity as no organisation at all.
   */
  legalNamesWithLabels?: FieldScore;
  emails?: FieldScore;
  addresses?: FieldScore;
}

// Letters of every script are kept: a Japanese or Greek name folded to nothing matched nothing.
const fold = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/** A company name without legal form, leading "the", trademark signs or a trailing ".com"; "&" read as "and". */
export function normaliseCompanyName(s: string): string {
  const bare = stripLegalForm(s.replace(/[®™]/g, '').replace(/&/g, ' and ').trim()).replace(/\.(?:com|net|org|us|info|co\.uk|com\.au|ca|co)$/i, '');
  return fold(bare).replace(/^the(?=.{3})/, '');
}

export function companyNameMatches(predicted: string, expected: string, legalNames: readonly string[] = []): boolean {
  const p = normaliseCompanyName(predicted);
  if (!p) return false;
  return [expected, ...legalNames].some((e) => normaliseCompanyName(e) === p);
}

const FORM_SPELLINGS: Array<[RegExp, string]> = [
  [/\bincorporated\b/g, 'inc'],
  [/\blimited\b/g, 'ltd'],
  [/\bcorporation\b/g, 'corp'],
  [/\bcompany\b/g, 'co'],
  [/\bl\.\s?l\.\s?c\b/g, 'llc'],
  [/\bl\.\s?l\.\s?p\b/g, 'llp'],
  [/\bp\.\s?l\.\s?c\b/g, 'plc'],
];

/**
 * A predicted name is the stated legal name when both read the same once punctuation, case and the
 * spelling of the legal form ("Limited"/"Ltd.", "Incorporated"/"Inc") are set aside. A stated name
 * without a legal form ("Condé Nast", a copyright holder) is matched on the name alone.
 */
export function legalNameMatches(predicted: string, expected: string): boolean {
  const canon = (s: string): string => {
    let t = s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/&/g, ' and ');
    for (const [re, to] of FORM_SPELLINGS) t = t.replace(re, to);
    return fold(t).replace(/^the(?=.{3})/, '');
  };
  if (!predicted.trim()) return false;
  if (canon(predicted) === canon(expected)) return true;
  return !legalFormOf(expected) && normaliseCompanyName(predicted) === normaliseCompanyName(expected);
}

/** Emails match lower-cased, or against annotations that kept the written-out form ("infoatacmedotcom"). */
export function emailMatches(predicted: string, expected: string): boolean {
  const p = predicted.toLowerCase().trim();
  const e = expected.toLowerCase().trim();
  if (p === e) return true;
  const written = fold(p.replace('@', 'at').replace(/\./g, 'dot'));
  return !e.includes('@') && written === fold(e);
}

const STREET_WORDS: Array<[RegExp, string]> = [
  [/\bstreet\b/g, 'st'],
  [/\bavenue\b/g, 'ave'],
  [/\broad\b/g, 'rd'],
  [/\bdrive\b/g, 'dr'],
  [/\bboulevard\b/g, 'blvd'],
  [/\bsuite\b/g, 'ste'],
  [/\blane\b/g, 'ln'],
  [/\bplace\b/g, 'pl'],
  [/\bparkway\b/g, 'pkwy'],
  [/\bcourt\b/g, 'ct'],
  [/\bnorth\b/g, 'n'],
  [/\bsouth\b/g, 's'],
  [/\beast\b/g, 'e'],
  [/\bwest\b/g, 'w'],
  [/\b(?:usa|u\.s\.a\.|united states|canada|united kingdom)\b/g, ''],
];
function addressTokens(s: string): string[] {
  let t = s.toLowerCase();
  for (const [re, to] of STREET_WORDS) t = t.replace(re, to);
  return t.split(/[^a-z0-9]+/).filter(Boolean);
}

/**
 * Two addresses match when their letters-and-digits strings are equal, or when one contains the
 * other and covers at least 60% of it (annotations split or merge lines), or when at least 80% of the
 * expected tokens appear in a prediction that is not much longer. Never when their numbers disagree:
 * "1385 Riverdale Street" and "1399 Riverdale Street" in the same town are two addresses.
 */
export function addressMatches(predicted: string, expected: string): boolean {
  if (fold(predicted) === fold(expected)) return true;
  const p = addressTokens(predicted);
  const e = addressTokens(expected);
  const numbers = (ts: string[]): string[] => ts.filter((t) => /^\d+$/.test(t));
  const [pn, en] = [numbers(p), numbers(e)];
  if (!pn.every((n) => en.includes(n)) && !en.every((n) => pn.includes(n))) return false;
  const pc = p.join('');
  const ec = e.join('');
  if (!pc || !ec) return false;
  if (pc === ec) return true;
  const [short, long] = pc.length < ec.length ? [pc, ec] : [ec, pc];
  if (long.includes(short) && short.length / long.length >= 0.6) return true;
  const pSet = new Set(p);
  const covered = e.filter((t) => pSet.has(t)).length / e.length;
  return covered >= 0.8 && p.length <= 1.6 * e.length + 2;
}

/** One-to-one greedy matching of predictions to truths. */
export function scoreSet(predicted: readonly string[], expected: readonly string[], matches: (p: string, e: string) => boolean): FieldScore {
  const used = new Set<number>();
  const falsePositives: string[] = [];
  let tp = 0;
  for (const p of predicted) {
    const i = expected.findIndex((e, j) => !used.has(j) && matches(p, e));
    if (i >= 0) {
      used.add(i);
      tp++;
    } else falsePositives.push(p);
  }
  const falseNegatives = expected.filter((_, j) => !used.has(j));
  return { tp, fp: falsePositives.length, fn: falseNegatives.length, falsePositives, falseNegatives };
}

const uniqueBy = (xs: readonly string[], key: (s: string) => string): string[] => {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

export function scoreCompany(truth: CompanyTruth, data: CompanyData): CompanyScore {
  const out: CompanyScore = {};
  const legal = truth.legal_names ?? [];
  const stated = [...legal, ...(truth.stated_legal_names ?? [])];
  if (truth.company_name) {
    // The owner's legal name (a parent company's, where the page states it) is the organisation too.
    out.name = { correct: companyNameMatches(data.name, truth.company_name, stated), predicted: data.name, expected: truth.company_name };
    out.brand = { correct: companyNameMatches(data.brand_name, truth.company_name, legal), predicted: data.brand_name };
  }
  if (stated.length) {
    out.statedLegal = { correct: stated.some((e) => legalNameMatches(data.name, e)), predicted: data.name, expected: stated };
  }
  if (truth.legal_names) {
    // The analyzer states a legal name when its name carries a legal form. Spelling variants of the
    // owner's legal name ("Ltd" / "Ltd.") are one truth: any of them counts as the hit.
    const predicted = hasStrongLegalForm(data.name) ? data.name : '';
    const score = (truths: readonly string[]): FieldScore => {
      const hit = !!predicted && truths.some((e) => fold(e) === fold(predicted) || normaliseCompanyName(e) === normaliseCompanyName(predicted));
      return {
        tp: hit ? 1 : 0,
        fp: predicted && !hit ? 1 : 0,
        fn: truths.length > 0 && !hit ? 1 : 0,
        falsePositives: predicted && !hit ? [predicted] : [],
        falseNegatives: truths.length > 0 && !hit ? [truths[0]!] : [],
      };
    };
    out.legalNames = score(legal);
    out.legalNamesWithLabels = score(stated);
  }
  if (truth.emails_annotated && truth.emails) {
    out.emails = scoreSet(
      data.emails,
      uniqueBy(truth.emails, (e) => e.toLowerCase()),
      emailMatches,
    );
  }
  if (truth.contact_annotated && truth.addresses) {
    const expected = truth.addresses.map((a) => (typeof a === 'string' ? a : a.full));
    // The same address annotated twice on a page ("Pl" and "Place") is one address to find.
    const distinct = expected.filter((e, i) => !expected.slice(0, i).some((f) => addressMatches(e, f)));
    out.addresses = scoreSet(data.addresses, distinct, addressMatches);
  }
  return out;
}

export function precisionRecall(c: Counts): { precision: number; recall: number } {
  return { precision: c.tp + c.fp ? c.tp / (c.tp + c.fp) : 1, recall: c.tp + c.fn ? c.tp / (c.tp + c.fn) : 1 };
}

/**
 * Emails a contact page offers that the corpus annotation omits (test/eval/labels/emails.jsonl): the
 * annotation tags only addresses shown as text, so a `mailto:` target behind other link text
 * ("Customer Query", "web administrators"), percent-encoded or written by a script counted as a
 * false positive. `rendered`: every labelled address (the HTTP eval, whose browser runs scripts);
 * `markup`: only those in the HTML itself (the offline evals, which run none).
 */
export function loadEmailLabels(kind: 'rendered' | 'markup', path = join(import.meta.dirname, 'labels/emails.jsonl')): Map<string, string[]> {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const labels = lines.map((l) => JSON.parse(l) as { page_id: string; emails: string[]; in_markup: string[] });
  return new Map(labels.map((l) => [l.page_id, kind === 'rendered' ? l.emails : l.in_markup]));
}

/**
 * The truth with the labelled emails added, for pages whose emails are annotated. A labelled address
 * that the annotation already has written out ("info at acme dot com" annotated as
 * "infoatacmedotcom", the link's target "info@acme.com") is that address, not a second one: the
 * labelling rule compared strings, so each such address was counted twice and one of the two was
 * always a miss (2026-11-27: 5 of the validation half's 6 missed contact-page emails).
 */
export function withEmailLabels<T extends CompanyTruth>(truth: T, labelled: readonly string[] | undefined): T {
  if (!labelled?.length || !truth.emails_annotated || !truth.emails) return truth;
  const annotated = truth.emails;
  return { ...truth, emails: [...annotated, ...labelled.filter((l) => !annotated.some((a) => emailMatches(l, a)))] };
}

/** Pages are bytes: UTF-8 when valid, else the Windows-1252 that browsers assume for old Western pages. */
export function decodePage(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

interface LegalNameLabel {
  page_id: string;
  legal_name: string | null;
  how: string;
}

/** A page as the stated-legal-name labels need it: its id, its site and its saved HTML. */
export interface LabelledPage {
  page_id: string;
  domain?: string;
  url?: string;
  html: string;
}

/**
 * Adds to each page's truth the legal names it states (`stated_legal_names`) from the hand labels of
 * test/eval/labels/legal-names.jsonl (see labels/README.md): its own label, and the label of another
 * page of the same site when this page's text contains that name too (a site's legal entity is one,
 * wherever it is written). Used by the offline company eval and `npm run eval` alike.
 */
export function withStatedLegalNames<R extends LabelledPage & { gt: CompanyTruth }>(
  records: readonly R[],
  corpusDir: string,
  siteOf: (r: R) => string,
  path = join(import.meta.dirname, 'labels/legal-names.jsonl'),
): R[] {
  const labels = new Map(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LegalNameLabel)
      .map((l) => [l.page_id, l] as const),
  );
  const fold = (t: string): string => t.toLowerCase().replace(/[^a-z0-9]/g, '');
  const pageText = (r: R): string =>
    fold(
      decodePage(readFileSync(join(corpusDir, r.html)))
        .replace(/<[^>]*>/g, ' ')
        .replace(/&amp;/g, '&'),
    );
  const stated = (r: R): string[] => {
    const own = labels.get(r.page_id)?.legal_name;
    if (own) return [own];
    const site = siteOf(r);
    const siteNames = records.filter((o) => o.page_id !== r.page_id && siteOf(o) === site).map((o) => labels.get(o.page_id)?.legal_name);
    const named = siteNames.filter((n): n is string => !!n);
    if (!named.length) return [];
    const text = pageText(r);
    return [...new Set(named.filter((n) => text.includes(fold(n))))];
  };
  return records.map((r) => {
    const names = stated(r);
    return names.length ? { ...r, gt: { ...r.gt, stated_legal_names: names } } : r;
  });
}
