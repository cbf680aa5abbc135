/**
 * Container suites run where a container engine answers (a developer's Docker, CI with a socket) and
 * skip, saying why, where none does. The images are the ones docker-compose.yml deploys, so these
 * suites also prove the pinned tags work.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** Why the container suites cannot run here, or undefined when a container runtime answers. */
export async function containerRuntimeProblem(): Promise<string | undefined> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return undefined;
  } catch (err) {
    return `no container runtime (testcontainers: ${(err as Error).message.split('\n')[0]})`;
  }
}

/** The image a docker-compose.yml service runs, e.g. composeImage('nats') -> 'nats:2.12-alpine'. */
export function composeImage(service: string): string {
  const compose = parse(readFileSync(join(import.meta.dirname, '..', '..', 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string }>;
  };
  const image = compose.services[service]?.image;
  if (!image) throw new Error(`docker-compose.yml has no image for ${service}`);
  return image;
}
