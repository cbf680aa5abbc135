/**
 * Starts the OpenTelemetry SDK for a service. Exporters follow the standard variables: traces and
 * metrics go over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or the per-signal variant) is set, and
 * metrics are also served as Prometheus text on METRICS_PORT when that is set. With neither, spans are
 * still created (log lines carry their ids) but nothing is exported, so a laptop without a collector
 * stays quiet.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace';

export interface TelemetryOptions {
  serviceName: string;
  /** Export spans and metrics over OTLP/HTTP. */
  otlp: { tracesEndpoint?: string | undefined; metricsEndpoint?: string | undefined } | null;
  /** Serve Prometheus text at http://0.0.0.0:<port>/metrics. */
  prometheusPort?: number | undefined;
  /** Extra span processors (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

export interface Telemetry {
  tracerProvider: TracerProvider;
  meterProvider: MeterProvider;
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

let contextReady = false;
function registerContextAndPropagation(): void {
  if (contextReady) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  contextReady = true;
}

export function startTelemetry(opts: TelemetryOptions): Telemetry {
  registerContextAndPropagation();
  const resource = resourceFromAttributes({ 'service.name': opts.serviceName, 'service.namespace': 'enrich' });
  const spanProcessors: SpanProcessor[] = [...(opts.spanProcessors ?? [])];
  if (opts.otlp) {
    const exporter = new OTLPTraceExporter(opts.otlp.tracesEndpoint ? { url: opts.otlp.tracesEndpoint } : {});
    spanProcessors.push(new BatchSpanProcessor({ exporter }));
  }
  const tracerProvider = new TracerProvider({ resource, spanProcessors });
  trace.setGlobalTracerProvider(tracerProvider);

  const readers: IMetricReader[] = [];
  if (opts.otlp) {
    const exporter = new OTLPMetricExporter(opts.otlp.metricsEndpoint ? { url: opts.otlp.metricsEndpoint } : {});
    readers.push(new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 15_000 }));
  }
  if (opts.prometheusPort !== undefined) {
    readers.push(new PrometheusExporter({ port: opts.prometheusPort, host: '0.0.0.0' }));
  }
  const meterProvider = new MeterProvider({ resource, readers });
  metrics.setGlobalMeterProvider(meterProvider);

  return {
    tracerProvider,
    meterProvider,
    async forceFlush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

/** For tests: spans of every service started in this process land in one in-memory exporter. */
export function startTestTelemetry(serviceName = 'test'): Telemetry & { exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const t = startTelemetry({ serviceName, otlp: null, spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { ...t, exporter };
}
