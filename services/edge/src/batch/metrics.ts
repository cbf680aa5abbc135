/** Batch metrics: items by outcome, item duration, items running, batches and webhook deliveries. */
import { metrics } from '@opentelemetry/api';

function createInstruments() {
  const meter = metrics.getMeter('edge');
  return {
    items: meter.createCounter('edge.batch.items', { description: 'batch items by endpoint and outcome (succeeded, failed, retried, skipped)' }),
    itemDuration: meter.createHistogram('edge.batch.item.duration', { unit: 'ms', description: 'batch item duration (reserve to settle) by endpoint' }),
    running: meter.createUpDownCounter('edge.batch.items.running', { description: 'batch items running on this instance' }),
    batches: meter.createCounter('edge.batch.batches', { description: 'batches by event (submitted, done, cancelled, stopped_credits)' }),
    webhooks: meter.createCounter('edge.batch.webhooks', { description: 'webhook delivery attempts by outcome (delivered, retried, failed)' }),
    paused: meter.createCounter('edge.batch.pauses', { description: 'times the batch worker paused because a renderer was busy or absent' }),
  };
}

let instruments: ReturnType<typeof createInstruments> | undefined;

/** Created on first use, after the runtime registered the MeterProvider (see metrics.ts). */
export function batchMetrics(): ReturnType<typeof createInstruments> {
  instruments ??= createInstruments();
  return instruments;
}
