/**
 * The shipped configurations trust exactly the proxies in front of them (docs/operations.md): k8s one
 * hop (the ingress controller), docker compose none (the port is published directly). Never every hop.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadEdgeConfig } from '../../services/edge/src/config.ts';

const root = join(import.meta.dirname, '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

describe('TRUST_PROXY in the shipped configurations', () => {
  it('k8s trusts one hop', () => {
    const maps = parseAllDocuments(read('deploy/k8s/config.yaml')).map((d) => d.toJS() as { metadata?: { name?: string }; data?: Record<string, string> });
    const edge = maps.find((m) => m.metadata?.name === 'enrich-edge')?.data ?? {};
    expect(edge.TRUST_PROXY).toBe('1');
    expect(loadEdgeConfig({ TRUST_PROXY: edge.TRUST_PROXY }).trustProxy).toBe(1);
  });

  it('docker compose trusts none', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { environment?: Record<string, string> }> };
    const value = String(compose.services.edge?.environment?.TRUST_PROXY);
    expect(loadEdgeConfig({ TRUST_PROXY: value }).trustProxy).toBe(0);
  });
});
