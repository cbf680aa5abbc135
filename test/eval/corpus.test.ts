import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { charsetOf, corpusPresent, loadRecords, sampleRecords, serveCorpusPages, type CorpusRecord } from './corpus.ts';

const rec = (page_id: string, extra: Partial<CorpusRecord> = {}, gt: CorpusRecord['gt'] = {}): CorpusRecord => ({
  page_id,
  source: 'webstruct-business',
  html: `pages/${page_id}.html`,
  url: 'http://example.com/',
  domain: 'example.com',
  page_role: 'other',
  gt,
  ...extra,
});

describe('sampleRecords', () => {
  const records = [
    rec('a1'),
    rec('a2'),
    rec('a3', { page_role: 'main' }),
    rec('a4'),
    rec('a5', {}, { twitter: 'https://twitter.com/x' }),
    rec('a6'),
    rec('a7', { source: 'readability', page_role: 'article/other' }),
    rec('a8'),
  ];

  it('keeps every page with scarce truth first, in corpus order, the same on every call', () => {
    const s = sampleRecords(records, 5);
    expect(s).toHaveLength(5);
    expect(s.map((r) => r.page_id)).toEqual(expect.arrayContaining(['a3', 'a5', 'a7']));
    expect(s.map((r) => r.page_id)).toEqual([...s.map((r) => r.page_id)].sort());
    expect(sampleRecords(records, 5)).toEqual(s);
  });

  it('returns everything when the limit is not below the size', () => {
    expect(sampleRecords(records, 8)).toEqual(records);
  });
});

describe('serveCorpusPages', () => {
  it('serves a page as text/html without a charset, so the page meta decides, and nothing outside pages/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
    mkdirSync(join(dir, 'pages'));
    // "Café" in windows-1252: a charset=utf-8 header would turn the é into U+FFFD.
    writeFileSync(
      join(dir, 'pages', 'wsb-1.html'),
      Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>Caf'), Buffer.from([0xe9]), Buffer.from('</p>')]),
    );
    writeFileSync(join(dir, 'ground_truth.jsonl'), `${JSON.stringify(rec('wsb-1'))}\n`);
    expect(corpusPresent(dir)).toBe(true);
    const [record] = loadRecords(dir);
    const server = await serveCorpusPages(dir, '127.0.0.1');
    try {
      const res = await fetch(server.urlOf(record!));
      expect(res.headers.get('content-type')).toBe('text/html');
      expect(Buffer.from(await res.arrayBuffer()).includes(0xe9)).toBe(true);
      expect((await fetch(`${server.origin}/..%2Fground_truth.jsonl`)).status).toBe(404);
      expect((await fetch(`${server.origin}/nothing.html`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('declares utf-8 for a UTF-8 page that declares no charset, and leaves every other page to its meta', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
    mkdirSync(join(dir, 'pages'));
    const pages: [string, Buffer][] = [
      ['wsb-1.html', Buffer.from('<p>© 2020 Simons Foundation</p>', 'utf8')],
      ['wsb-2.html', Buffer.from('<meta charset="utf-8"><p>© 2020 Acme</p>', 'utf8')],
      ['wsb-3.html', Buffer.concat([Buffer.from('<p>Caf'), Buffer.from([0xe9]), Buffer.from('</p>')])],
      ['wsb-4.html', Buffer.from('<p>plain ASCII</p>')],
    ];
    for (const [name, body] of pages) writeFileSync(join(dir, 'pages', name), body);
    expect(pages.map(([, body]) => charsetOf(body))).toEqual(['utf-8', null, null, null]);
    const server = await serveCorpusPages(dir, '127.0.0.1');
    try {
      expect((await fetch(`${server.origin}/wsb-1.html`)).headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect((await fetch(`${server.origin}/wsb-3.html`)).headers.get('content-type')).toBe('text/html');
    } finally {
      await server.close();
    }
  });

  it('with a certificate, answers TLS and plain HTTP on the same port (HSTS-preloaded hosts are upgraded to https)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corpus-tls-'));
    mkdirSync(join(dir, 'pages'));
    writeFileSync(join(dir, 'pages', 'rb-1.html'), '<p>over TLS</p>');
    // A self-signed certificate for the page's live host (openssl is on every Debian machine).
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=news.example.test',
        '-addext',
        'subjectAltName=DNS:news.example.test',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    const tls = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
    const server = await serveCorpusPages(dir, '127.0.0.1', false, tls);
    try {
      expect(await (await fetch(`${server.origin}/rb-1.html`)).text()).toBe('<p>over TLS</p>');
      const port = new URL(server.origin).port;
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/rb-1.html', servername: 'news.example.test', ca: tls.cert }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('<p>over TLS</p>');
    } finally {
      await server.close();
    }
  });
});
