/**
 * Graceful shutdown on SIGTERM/SIGINT: steps run in order (stop intake, drain in-flight work, close
 * dependencies, flush telemetry); a second signal or the timeout exits at once.
 */
import type { Logger } from 'pino';

export type ShutdownStep = { name: string; run: () => Promise<void> };

export function handleShutdown(
  steps: () => ShutdownStep[],
  opts: { log: Logger; timeoutMs: number; exit?: (code: number) => void },
): { trigger(reason: string, failed?: boolean): Promise<void> } {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | undefined;
  /** `failed`: the process stops because something went wrong (a failed start), so it exits 1 even when every step succeeds. */
  const trigger = (reason: string, failed = false): Promise<void> => {
    if (running) return running;
    opts.log.info({ reason }, 'shutting down');
    const timer = setTimeout(() => {
      opts.log.error({ timeoutMs: opts.timeoutMs }, 'shutdown timed out; exiting');
      exit(1);
    }, opts.timeoutMs);
    timer.unref();
    running = (async () => {
      let code = failed ? 1 : 0;
      for (const step of steps()) {
        try {
          await step.run();
        } catch (err) {
          code = 1;
          opts.log.error({ err, step: step.name }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
      opts.log.info('stopped');
      exit(code);
    })();
    return running;
  };
  let signals = 0;
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      signals += 1;
      if (signals > 1) {
        opts.log.warn('second signal; exiting now');
        exit(130);
      }
      void trigger(sig);
    });
  }
  return { trigger };
}
