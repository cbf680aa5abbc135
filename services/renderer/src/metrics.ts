/** Renderer metrics; exporters are wired by the shared runtime. */
import { metrics, type Counter, type Histogram } from '@opentelemetry/api';

export interface RendererMetrics {
  pageLoad: Histogram;
  outcomes: Counter;
}

export function createRendererMetrics(pool: () => { browsers: number; contexts: number; busy: number; queued: number; capacity: number }): RendererMetrics {
  const meter = metrics.getMeter('renderer');
  meter.createObservableGauge('renderer.pool.size', { description: 'pages this renderer may render at once' }).addCallback((r) => r.observe(pool().capacity));
  meter
    .createObservableGauge('renderer.pool.browsers', { description: 'Chromium processes alive (more than one while recycling)' })
    .addCallback((r) => r.observe(pool().browsers));
  meter.createObservableGauge('renderer.pool.busy', { description: 'pages rendering now' }).addCallback((r) => r.observe(pool().busy));
  meter.createObservableGauge('renderer.pool.queued', { description: 'requests waiting for a page' }).addCallback((r) => r.observe(pool().queued));
  // The autoscaling signal (deploy/k8s/renderer.yaml): 1 means every page busy; above 1, a backlog.
  meter
    .createObservableGauge('renderer.pool.load', { description: '(pages rendering + requests waiting) / pages this renderer may render at once' })
    .addCallback((r) => {
      const p = pool();
      r.observe(p.capacity > 0 ? (p.busy + p.queued) / p.capacity : 0);
    });
  return {
    pageLoad: meter.createHistogram('renderer.page_load.duration', { unit: 'ms', description: 'navigation plus settle time per page' }),
    outcomes: meter.createCounter('renderer.renders', { description: 'render requests by outcome (ok or the error code)' }),
  };
}
