/** JSON logs (pino) whose every line carries the active trace/span ids and the request id. */
import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import { currentRequestId } from './request-context.ts';

export type { Logger } from 'pino';

export function createLogger(service: string, level: LevelWithSilent = 'info'): Logger {
  return pino({
    level,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan();
      const sc = span?.spanContext();
      const requestId = currentRequestId();
      return {
        ...(sc ? { trace_id: sc.traceId, span_id: sc.spanId } : {}),
        ...(requestId ? { requestId } : {}),
      };
    },
  });
}
