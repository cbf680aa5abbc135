/**
 * What a developer reads: the playground at / (routes/playground.ts), /openapi.json (generated from
 * the contracts, `servers` per request) and the Swagger UI at /docs. Free, no key; the per-IP limit applies.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import swaggerUi from '@fastify/swagger-ui';
import type { EdgeConfig } from '../config.ts';
import { buildOpenApiDocument, withServers } from '../openapi.ts';
import { registerPlayground } from './playground.ts';

/** PUBLIC_URL, else the origin this request reached (scheme and host from X-Forwarded-* only when TRUST_PROXY is on). */
export function serverUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return '/';
  }
}

export async function registerDocs(app: FastifyInstance, config: EdgeConfig): Promise<void> {
  const openapi = buildOpenApiDocument();
  app.get('/openapi.json', async (request, reply) => {
    if (!config.publicUrl) reply.header('vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
    return reply.type('application/json; charset=utf-8').send(withServers(openapi, serverUrl(request, config.publicUrl)));
  });
  // @fastify/swagger-ui reads the document from a `swagger()` decorator that @fastify/swagger would
  // normally provide; ours is generated from zod, so a two-line stand-in provides it instead. Without a
  // request at hand its server is PUBLIC_URL or "/" (the origin the UI was loaded from).
  const forUi = withServers(openapi, config.publicUrl ?? '/');
  await app.register(
    fp(
      async (instance) => {
        instance.decorate('swagger', () => forUi);
      },
      { name: '@fastify/swagger' },
    ),
  );
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  registerPlayground(app);
}
