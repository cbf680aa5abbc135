/** W3C trace context carried in NATS message headers, so one HTTP request is one trace across services. */
import { context, propagation, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import type { MsgHdrs } from '@nats-io/transport-node';

const setter: TextMapSetter<MsgHdrs> = {
  set(carrier, key, value) {
    carrier.set(key, value);
  },
};

// NATS header keys keep the case they were sent with; propagators ask in lower case.
const getter: TextMapGetter<MsgHdrs | undefined> = {
  keys(carrier) {
    return carrier ? carrier.keys() : [];
  },
  get(carrier, key) {
    if (!carrier) return undefined;
    const exact = carrier.get(key);
    if (exact) return exact;
    for (const k of carrier.keys()) if (k.toLowerCase() === key) return carrier.get(k);
    return undefined;
  },
};

export function injectTraceContext(headers: MsgHdrs, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, setter);
}

export function extractTraceContext(headers: MsgHdrs | undefined, ctx: Context = context.active()): Context {
  return propagation.extract(ctx, headers, getter);
}
