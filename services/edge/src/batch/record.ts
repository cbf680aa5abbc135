/**
 * A batch as stored: its settings, status, counters and a bitmap of answered items. The bitmap makes
 * counting idempotent: an item answered twice (a redelivery after a crash) sets its bit once, so the
 * counts and the end of the batch are exact whatever the order of crashes. Pure functions only.
 */
import type { BatchEndpoint, BatchInfo, BatchItemResult, BatchStatus } from '@enrich/shared/contracts';

export interface TraceLink {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

export interface WebhookState {
  url: string;
  state: 'waiting' | 'delivered' | 'failed';
  attempts: number;
  lastError?: string;
}

export interface BatchRecord {
  id: string;
  keyId: string;
  endpoint: BatchEndpoint;
  total: number;
  status: BatchStatus;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  maxAge: number | null;
  webhook: WebhookState | null;
  /** base64 bitmap, bit i set once item i is answered. */
  answered: string;
  succeeded: number;
  failed: number;
  creditsCharged: number;
  /** The submitting request's span: every item's trace links to it. */
  link: TraceLink | null;
  /** Epoch ms the record (and results) expire: last change + retention. */
  expiresAt: number;
}

export const TERMINAL: ReadonlySet<BatchStatus> = new Set(['done', 'cancelled', 'stopped_credits']);

export function emptyBitmap(total: number): string {
  return Buffer.alloc(Math.ceil(total / 8)).toString('base64');
}

export function isAnswered(rec: Pick<BatchRecord, 'answered'>, index: number): boolean {
  const bytes = Buffer.from(rec.answered, 'base64');
  return ((bytes[index >> 3] ?? 0) & (1 << (index & 7))) !== 0;
}

function withBit(answered: string, index: number): string {
  const bytes = Buffer.from(answered, 'base64');
  bytes[index >> 3] = (bytes[index >> 3] ?? 0) | (1 << (index & 7));
  return bytes.toString('base64');
}

/**
 * Counts an answer once. Returns the next record, or null when the item was counted already. The
 * last answer of a running batch ends it (`done`); answers of a batch that was stopped or cancelled
 * meanwhile (items that were already running) are still counted.
 */
export function countAnswer(rec: BatchRecord, result: BatchItemResult, now: number, retentionMs: number): BatchRecord | null {
  if (isAnswered(rec, result.index)) return null;
  const next: BatchRecord = {
    ...rec,
    answered: withBit(rec.answered, result.index),
    succeeded: rec.succeeded + (result.state === 'succeeded' ? 1 : 0),
    failed: rec.failed + (result.state === 'failed' ? 1 : 0),
    creditsCharged: rec.creditsCharged + (result.state === 'succeeded' ? (result.credits ?? 0) : 0),
    startedAt: rec.startedAt ?? new Date(now).toISOString(),
    expiresAt: now + retentionMs,
  };
  if (!TERMINAL.has(rec.status)) next.status = 'running';
  if (!TERMINAL.has(rec.status) && next.succeeded + next.failed === next.total) {
    next.status = 'done';
    next.finishedAt = new Date(now).toISOString();
  }
  return next;
}

/** Ends a queued or running batch early (cancelled, stopped_credits); null when it has ended already. */
export function endEarly(rec: BatchRecord, status: 'cancelled' | 'stopped_credits', now: number, retentionMs: number): BatchRecord | null {
  if (TERMINAL.has(rec.status)) return null;
  return { ...rec, status, finishedAt: new Date(now).toISOString(), expiresAt: now + retentionMs };
}

export function markStarted(rec: BatchRecord, now: number): BatchRecord | null {
  if (rec.status !== 'queued') return null;
  return { ...rec, status: 'running', startedAt: new Date(now).toISOString() };
}

export function toInfo(rec: BatchRecord): BatchInfo {
  const answered = rec.succeeded + rec.failed;
  const ended = TERMINAL.has(rec.status);
  const { url, state, attempts, lastError } = rec.webhook ?? { url: '', state: 'waiting', attempts: 0 };
  return {
    id: rec.id,
    endpoint: rec.endpoint,
    status: rec.status,
    counts: {
      total: rec.total,
      succeeded: rec.succeeded,
      failed: rec.failed,
      pending: ended ? 0 : rec.total - answered,
      skipped: ended ? rec.total - answered : 0,
    },
    creditsCharged: rec.creditsCharged,
    maxAge: rec.maxAge,
    createdAt: rec.createdAt,
    startedAt: rec.startedAt,
    finishedAt: rec.finishedAt,
    expiresAt: new Date(rec.expiresAt).toISOString(),
    webhook: rec.webhook ? { url, state, attempts, ...(lastError ? { lastError } : {}) } : null,
  };
}
