/**
 * The per-request egress policy: one place that decides, caches and remembers which targets the
 * browser may reach. The browser context's routes and its egress proxy both ask it, so a verdict is
 * resolved once per host and the proxy connects to exactly the addresses that were checked.
 */
import type { BlockList } from 'node:net';
import { isForbiddenTarget, type Resolve, type TargetVerdict } from '../ssrf.ts';

export interface EgressRefusal {
  url: string;
  kind: 'forbidden' | 'unreachable';
  reason: string;
  /** Chromium-style net error, e.g. net::ERR_CONNECTION_REFUSED. */
  netError: string;
}

export interface EgressGuard {
  check(url: string): Promise<TargetVerdict>;
  refuse(refusal: EgressRefusal): void;
  /** Refusals in the order they happened. */
  refusals(): EgressRefusal[];
  /** The refusal recorded for a URL's origin (scheme-independent host:port match), if any. */
  refusalFor(url: string): EgressRefusal | undefined;
}

const MAX_REFUSALS = 500;

function hostPort(url: string): string | null {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? '443' : '80');
    return `${u.hostname}:${port}`;
  } catch {
    return null;
  }
}

export function createEgressGuard(opts: { resolve: Resolve; allow: BlockList }): EgressGuard {
  const verdicts = new Map<string, Promise<TargetVerdict>>();
  const refused: EgressRefusal[] = [];
  return {
    check(url) {
      let key: string;
      try {
        const u = new URL(url);
        // Cache by scheme class + host: the address verdict does not depend on path or port.
        key = `${u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:' || u.protocol === 'wss:' ? 'net' : u.protocol}//${u.username}:${u.password}@${u.hostname}`;
      } catch {
        return isForbiddenTarget(url, opts);
      }
      let verdict = verdicts.get(key);
      if (!verdict) {
        verdict = isForbiddenTarget(url, opts);
        verdicts.set(key, verdict);
      }
      return verdict;
    },
    refuse(refusal) {
      if (refused.length < MAX_REFUSALS) refused.push(refusal);
    },
    refusals: () => [...refused],
    refusalFor(url) {
      const hp = hostPort(url);
      return refused.find((r) => r.url === url) ?? (hp ? refused.find((r) => hostPort(r.url) === hp) : undefined);
    },
  };
}

/** A guard whose job is named later (a spare page's, spare.ts): it refuses everything until `bind`, then is that job's guard. */
export interface GuardSwitch extends EgressGuard {
  bind(guard: EgressGuard): void;
}

const UNBOUND: TargetVerdict = { ok: false, kind: 'forbidden', reason: 'no render job holds this page yet' };

export function createGuardSwitch(): GuardSwitch {
  let bound: EgressGuard | null = null;
  return {
    bind(guard) {
      bound = guard;
    },
    check: (url) => (bound ? bound.check(url) : Promise.resolve(UNBOUND)),
    refuse(refusal) {
      bound?.refuse(refusal);
    },
    refusals: () => bound?.refusals() ?? [],
    refusalFor: (url) => bound?.refusalFor(url),
  };
}
