/** Latency statistics of one measured series: percentiles by linear interpolation, and throughput. */

export interface Sample {
  /** Milliseconds from sending the request to reading the whole answer. */
  ms: number;
  ok: boolean;
  /** HTTP status, or 0 when the request itself failed (connection refused, client timeout). */
  status: number;
}

export interface SeriesSummary {
  requests: number;
  ok: number;
  errors: number;
  /** Status code -> count, for the requests that were not ok. */
  errorStatuses: Record<string, number>;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
  /** Successful requests per second over the wall time of the series. */
  throughput: number;
  wallMs: number;
}

/** The q-quantile (0..1) of sorted values, interpolating between neighbours; NaN for no values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const round1 = (x: number): number => (Number.isFinite(x) ? Math.round(x * 10) / 10 : x);

/** Percentiles are over successful requests only: a fast 503 must not make the service look quick. */
export function summarize(samples: readonly Sample[], wallMs: number): SeriesSummary {
  const okMs = samples
    .filter((s) => s.ok)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  const errorStatuses: Record<string, number> = {};
  for (const s of samples) if (!s.ok) errorStatuses[String(s.status)] = (errorStatuses[String(s.status)] ?? 0) + 1;
  return {
    requests: samples.length,
    ok: okMs.length,
    errors: samples.length - okMs.length,
    errorStatuses,
    p50: round1(quantile(okMs, 0.5)),
    p95: round1(quantile(okMs, 0.95)),
    p99: round1(quantile(okMs, 0.99)),
    mean: round1(okMs.length ? okMs.reduce((a, b) => a + b, 0) / okMs.length : Number.NaN),
    max: round1(okMs.length ? okMs[okMs.length - 1]! : Number.NaN),
    throughput: wallMs > 0 ? Math.round((okMs.length / (wallMs / 1000)) * 100) / 100 : 0,
    wallMs: Math.round(wallMs),
  };
}

/** ours / theirs, rounded to two decimals; null when either side has no number. */
export function ratio(ours: number, theirs: number): number | null {
  if (!Number.isFinite(ours) || !Number.isFinite(theirs) || theirs === 0) return null;
  return Math.round((ours / theirs) * 100) / 100;
}

/**
 * Runs `total` tasks with at most `concurrency` in flight (a closed loop: each worker sends its next
 * request when the previous answer is read), and returns every sample and the wall time.
 */
export async function closedLoop(
  concurrency: number,
  total: number,
  task: (i: number) => Promise<Omit<Sample, 'ms'>>,
): Promise<{ samples: Sample[]; wallMs: number }> {
  const samples: Sample[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    for (let i = next++; i < total; i = next++) {
      const t0 = performance.now();
      let r: Omit<Sample, 'ms'>;
      try {
        r = await task(i);
      } catch {
        r = { ok: false, status: 0 };
      }
      samples.push({ ...r, ms: performance.now() - t0 });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return { samples, wallMs: performance.now() - started };
}
