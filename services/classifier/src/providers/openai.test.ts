import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClassifier } from '../classifier.ts';
import { createEmbeddedClassifier } from './embedded.ts';
import { createOpenAiProvider, parseReplyId } from './openai.ts';
import { snapshotFromHtml } from '../../../../test/support/snapshot-from-html.ts';

/** A local stand-in for an OpenAI-compatible endpoint; each test sets how it answers. */
type Behaviour = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let behaviour: Behaviour;
let server: Server;
let baseUrl: string;
const seen: { path: string; auth: string | undefined; body: { model: string; messages: { content: string }[] } }[] = [];

const answer =
  (content: string): Behaviour =>
  (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
    );
  };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(body) });
      behaviour(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const BAKERY = `<html lang="en"><head><title>Crumb &amp; Co. | Bakery in Portland</title>
<meta name="description" content="Crumb &amp; Co. is a neighborhood bakery baking sourdough bread, pastries and custom cakes every morning.">
</head><body><h1>Fresh bread, pastries and cakes</h1><nav><a href="/cakes">Cakes</a><a href="/pastries">Pastries</a><a href="/visit">Visit</a></nav>
<p>Our bakers start at 4 am. Order a birthday cake or pick up croissants, cookies and cupcakes.</p></body></html>`;

function classifierWith(mode: 'confirm' | 'replace', timeoutMs = 2_000) {
  const failures: string[] = [];
  const classifier = createClassifier({
    embedded: createEmbeddedClassifier(null),
    provider: createOpenAiProvider({ baseUrl, model: 'test-model', apiKey: 'sk-test', timeoutMs, mode }),
    onProviderFailure: (_name, reason) => failures.push(reason),
  });
  return { classifier, failures, run: () => classifier.classify(snapshotFromHtml(BAKERY, 'https://crumb.example/'), 'https://crumb.example/') };
}

describe('OpenAI-compatible provider', () => {
  it('posts the page and the allowed ids to {base}/chat/completions and uses a valid answer', async () => {
    behaviour = answer('{"iab_id":"IAB8-9"}');
    const { run, failures } = classifierWith('confirm');
    const got = await run();
    expect(got).toMatchObject({ iab_id: 'IAB8-9', iab_parent_id: 'IAB8', category: 'Food & Drink', subcategory: 'Dining Out' });
    expect(failures).toEqual([]);
    const last = seen.at(-1)!;
    expect(last.path).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer sk-test');
    expect(last.body.model).toBe('test-model');
    expect(last.body.messages[1]!.content).toContain('IAB8-8\tFood & Drink > Desserts & Baking');
    expect(last.body.messages[1]!.content).toContain('Crumb & Co. | Bakery in Portland');
  });

  it('keeps the embedded answer on HTTP 500', async () => {
    behaviour = (_req, _body, res) => {
      res.writeHead(500);
      res.end('upstream exploded');
    };
    const { run, failures } = classifierWith('confirm');
    expect((await run()).iab_id).toBe('IAB8-8');
    expect(failures[0]).toMatch(/HTTP 500/);
  });

  it('keeps the embedded answer when the endpoint does not answer in time', async () => {
    behaviour = () => {
      // Never answers; the provider's timeout must end the wait.
    };
    const { run, failures } = classifierWith('confirm', 200);
    expect((await run()).iab_id).toBe('IAB8-8');
    expect(failures[0]).toMatch(/timeout|abort/i);
  });

  it('keeps the embedded answer on a garbage reply or a body that is not JSON', async () => {
    behaviour = answer('I think this is probably a food website!');
    const prose = classifierWith('confirm');
    expect((await prose.run()).iab_id).toBe('IAB8-8');
    expect(prose.failures[0]).toMatch(/no allowed category/);

    behaviour = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>gateway</html>');
    };
    const html = classifierWith('confirm');
    expect((await html.run()).iab_id).toBe('IAB8-8');
    expect(html.failures[0]).toMatch(/no choices/);
  });

  it('rejects an id outside the taxonomy, and in confirm mode one outside the offered families', async () => {
    behaviour = answer('{"iab_id":"IAB8-99"}');
    const invented = classifierWith('replace');
    expect((await invented.run()).iab_id).toBe('IAB8-8');
    expect(invented.failures).toHaveLength(1);

    behaviour = answer('{"iab_id":"IAB26-2"}');
    const wandering = classifierWith('confirm');
    expect((await wandering.run()).iab_id).toBe('IAB8-8');
    expect(wandering.failures).toHaveLength(1);
  });

  it('may pick any taxonomy id in replace mode', async () => {
    behaviour = answer('```json\n{"iab_id": "iab22"}\n```');
    const { run } = classifierWith('replace');
    expect(await run()).toMatchObject({ iab_id: 'IAB22', iab_parent_id: 'IAB22', category: 'Shopping', subcategory: '' });
  });
});

describe('parseReplyId', () => {
  it('reads JSON, fenced JSON or a single id in prose, and nothing ambiguous', () => {
    expect(parseReplyId('{"iab_id":"IAB19-6"}')).toBe('IAB19-6');
    expect(parseReplyId('The answer is IAB7-17.')).toBe('IAB7-17');
    expect(parseReplyId('IAB7-17 or IAB7-19')).toBeNull();
    expect(parseReplyId('no idea')).toBeNull();
  });
});
