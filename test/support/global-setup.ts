/**
 * One private nats-server for the whole test run (unless NATS_URL is given), shared by the suites
 * through `inject('natsUrl')`. Suites that must kill or restart NATS start their own.
 */
import type { TestProject } from 'vitest/node';
import { startNatsServer, type NatsServerHandle } from './nats-server.ts';

let server: NatsServerHandle | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let url = process.env.NATS_URL;
  if (!url) {
    server = await startNatsServer();
    url = server.url;
  }
  project.provide('natsUrl', url);
  return async () => {
    await server?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    natsUrl: string;
  }
}
