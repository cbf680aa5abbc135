/**
 * The development corpus as the HTTP evaluation uses it: where it is, its ground-truth records, a
 * deterministic sample when not every page can be afforded, and a static server for its pages that
 * leaves the character set to the page (the saved pages declare windows-1252, iso-8859-1, utf-8 in
 * their own <meta>; a `charset=utf-8` header would override that and garble them), except for a
 * page that declares none and is UTF-8 (`charsetOf`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer } from 'node:net';
import { basename, join, resolve } from 'node:path';
import type { ClassifyTruth } from './score-classify.ts';
import type { CompanyTruth } from './score-company.ts';

export interface CorpusRecord {
  page_id: string;
  source: string;
  /** The page file relative to the corpus dir, e.g. `pages/wsb-0.html`. */
  html: string;
  url: string;
  domain: string;
  page_role: string;
  gt: CompanyTruth & {
    company_name?: string;
    twitter?: string;
    brand_hex?: string;
    iab?: string | null;
    iab_tier1?: string | null;
  };
}

/** EVAL_CORPUS_DIR, else ../shared/corpus/dev next to the repository. */
export function corpusDir(repoRoot: string, fromEnv: string | undefined): string {
  return fromEnv ? resolve(fromEnv) : resolve(repoRoot, '../shared/corpus/dev');
}

export function corpusPresent(dir: string): boolean {
  return existsSync(join(dir, 'ground_truth.jsonl')) && existsSync(join(dir, 'pages'));
}

export function loadRecords(dir: string): CorpusRecord[] {
  return readFileSync(join(dir, 'ground_truth.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusRecord);
}

export function classifyTruth(r: CorpusRecord): ClassifyTruth | null {
  return r.gt.iab && r.gt.iab_tier1 ? { iab: r.gt.iab, iab_tier1: r.gt.iab_tier1 } : null;
}

/** Truth that few pages carry: a sample keeps all of these before it fills up with the rest. */
export function hasScarceTruth(r: CorpusRecord): boolean {
  return (
    (!!r.gt.emails_annotated && r.page_role === 'contact') ||
    !!r.gt.twitter ||
    !!r.gt.brand_hex ||
    (r.gt.legal_names?.length ?? 0) > 0 ||
    r.page_role === 'main' ||
    r.source === 'readability'
  );
}

const stableOrder = (id: string): string => createHash('sha256').update(id).digest('hex');

/**
 * At most `limit` records, the same ones on every run: those with scarce truth first (in a stable
 * pseudo-random order), then the others, returned in corpus order.
 */
export function sampleRecords(records: readonly CorpusRecord[], limit: number): CorpusRecord[] {
  if (limit >= records.length) return [...records];
  const ranked = [...records].sort(
    (a, b) => Number(hasScarceTruth(b)) - Number(hasScarceTruth(a)) || stableOrder(a.page_id).localeCompare(stableOrder(b.page_id)),
  );
  const keep = new Set(ranked.slice(0, limit).map((r) => r.page_id));
  return records.filter((r) => keep.has(r.page_id));
}

export interface CorpusServer {
  origin: string;
  /** The URL the renderer is sent to for a record; `local` forces the page server's own address. */
  urlOf(r: CorpusRecord, local?: boolean): string;
  close(): Promise<void>;
}

/** The record's live host: from its URL, else its domain (some records carry only that). */
function liveHostOf(r: CorpusRecord): string | null {
  try {
    if (r.url) return new URL(r.url).hostname;
  } catch {
    // fall through to the domain
  }
  return /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(r.domain) ? r.domain : null;
}

/** Every live host of the records (for the TLS certificate). */
export function liveHostsOf(records: readonly CorpusRecord[]): string[] {
  return [...new Set(records.map(liveHostOf).filter((h): h is string => h !== null))];
}

/**
 * The charset header a saved page is served with: `utf-8` for a page that declares no charset in a
 * <meta> and whose bytes are UTF-8 with some non-ASCII, else none (the page's own <meta> decides).
 * Without it the browser reads such a page as windows-1252 ("Â©", "â€™"), while the offline evals
 * decode it as UTF-8 (score-company.ts decodePage); 2 tuning and 6 validation pages are of this kind.
 */
export function charsetOf(page: Buffer): 'utf-8' | null {
  if (/<meta[^>]+charset\s*=/i.test(page.toString('latin1', 0, 4096))) return null;
  if (!page.some((b) => b > 0x7f)) return null;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(page);
    return 'utf-8';
  } catch {
    return null;
  }
}

/**
 * Serves `<dir>/pages/*.html` flat on `host`: text/html, with a charset only where `charsetOf` gives
 * one; nothing else. With `liveHosts`, `urlOf` names each page under its live domain (the renderer
 * must then resolve every name to `host`: RESOLVE_OVERRIDES=*=<host>), so the analyzers see the
 * domain a customer would send.
 * With `tls` (test/eval/tls.ts) the same port also answers TLS (told apart by the first byte), for the
 * hosts Chromium upgrades to https itself (HSTS preload).
 */
export function serveCorpusPages(dir: string, host = '127.0.0.2', liveHosts = false, tls?: { key: string; cert: string }): Promise<CorpusServer> {
  const pages = join(dir, 'pages');
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): void => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    const file = join(pages, basename(name));
    if (!/^[\w.-]+\.html$/.test(name) || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = readFileSync(file);
    const charset = charsetOf(body);
    res.writeHead(200, { 'content-type': charset ? `text/html; charset=${charset}` : 'text/html' }).end(body);
  };
  const http = createServer(handler);
  const https = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, handler) : null;
  // One port for both: a TLS connection opens with a handshake record (0x16).
  const server = createTcpServer((socket) => {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (https && first[0] === 0x16 ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return new Promise((resolveP, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const origin = `http://${host}:${port}`;
      resolveP({
        origin,
        urlOf: (r, local = false) => {
          const live = liveHosts && !local ? liveHostOf(r) : null;
          return live ? `http://${live}:${port}/${basename(r.html)}` : `${origin}/${basename(r.html)}`;
        },
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    });
  });
}
