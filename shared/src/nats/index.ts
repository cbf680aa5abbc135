export { connectNats, type ConnectOptions } from './connect.ts';
export { serve, type Handler, type HandlerContext, type Served, type ServeOptions } from './serve.ts';
export { request, ping, type RequestOptions } from './request.ts';
export { encodeBody, decodeBody, maxBody } from './codec.ts';
export { CLAIM_BUCKET } from './claim-check.ts';
export {
  deleteSnapshots,
  earlyHandOut,
  putSnapshot,
  readSnapshot,
  sameVisuals,
  storedByRef,
  withSnapshots,
  SNAPSHOT_TTL_MS,
  type EarlyHandOut,
} from './snapshot-store.ts';
export { H as HEADERS } from './headers.ts';
export type { NatsConnection } from '@nats-io/transport-node';
