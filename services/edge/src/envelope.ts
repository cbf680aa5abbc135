/** The seed's response envelope, on every response: success, data or error, meta. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Meta } from '@enrich/shared/contracts';

export function metaOf(request: FastifyRequest, reply: FastifyReply): Meta {
  return { requestId: request.id, durationMs: Math.max(0, Math.round(reply.elapsedTime)) };
}

export function sendData<T>(request: FastifyRequest, reply: FastifyReply, data: T, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ success: true, data, meta: metaOf(request, reply) });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string, headers: Record<string, string> = {}): FastifyReply {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ success: false, error: message, meta: metaOf(request, reply) });
}
