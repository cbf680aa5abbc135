/** Header names our messages carry besides W3C `traceparent`/`tracestate`. */
export const H = {
  requestId: 'Enrich-Request-Id',
  /** Milliseconds of budget left when the message was sent (relative, so clocks need not agree). */
  deadlineMs: 'Enrich-Deadline-Ms',
  /** `gzip` when the body is gzip-compressed JSON. */
  encoding: 'Enrich-Encoding',
  /** `<bucket>/<object>`: the body is empty and the payload waits in the JetStream object store. */
  claimCheck: 'Enrich-Claim-Check',
  /** Present on error replies, as nats.js services do; the body is a WireError. */
  errorCode: 'Nats-Service-Error-Code',
} as const;
