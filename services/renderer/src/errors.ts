/** Browser and navigation failures as the ServiceErrors the edge maps to HTTP statuses. */
import {
  DeadlineExceededError,
  InternalError,
  ServiceError,
  TargetNotASiteError,
  TargetUnreachableError,
  UnavailableError,
  UrlForbiddenError,
} from '@enrich/shared/errors';
import type { EgressRefusal } from './egress/guard.ts';

/** Chromium net errors that mean "the target site could not be reached" (DNS, TCP, TLS, HTTP framing). */
const UNREACHABLE =
  /^net::ERR_(NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|ADDRESS_UNREACHABLE|ADDRESS_INVALID|CONNECTION_[A-Z_]+|EMPTY_RESPONSE|TIMED_OUT|INTERNET_DISCONNECTED|NETWORK_CHANGED|TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED|SSL_[A-Z_0-9]+|CERT_[A-Z_]+|BAD_SSL_CLIENT_AUTH_CERT|INVALID_RESPONSE|INVALID_HTTP_RESPONSE|RESPONSE_HEADERS_[A-Z_]+|CONTENT_LENGTH_MISMATCH|INCOMPLETE_CHUNKED_ENCODING|HTTP2_[A-Z_]+|INVALID_REDIRECT|TOO_MANY_REDIRECTS|UNSAFE_PORT|UNSAFE_REDIRECT|NO_SUPPORTED_PROXIES|SOCKS_[A-Z_]+|QUIC_[A-Z_]+|HTTP_1_1_REQUIRED|EMPTY_CHUNK)$/;

const BROWSER_GONE =
  /Target crashed|Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Page crashed|Navigation failed because page crashed|Protocol error.*Target closed|Target closed/i;

export function netErrorIn(message: string): string | null {
  return /net::ERR_[A-Z0-9_]+/.exec(message)?.[0] ?? null;
}

/**
 * A refusal as the client sees it. Refusal reasons name the kind of address, never the address
 * (ssrf.ts), and the refused URL is left out: a redirect's target or a literal address written as the
 * host would show an internal address in the message. Both URLs stay in `details` for the logs.
 */
export function refusalError(url: string, refusal: EgressRefusal): ServiceError {
  if (refusal.kind === 'forbidden') {
    const where = refusal.url === url ? '' : 'it redirected to a URL that is refused: ';
    return new UrlForbiddenError(`URL refused: ${where}${refusal.reason}`, { details: { url, refusedUrl: refusal.url } });
  }
  return new TargetUnreachableError(`target unreachable: ${refusal.netError} at ${refusal.url} (${refusal.reason})`, {
    details: { url, netError: refusal.netError },
  });
}

export interface FailureContext {
  url: string;
  stage: string;
  budgetMs: number;
  deadlineHit: boolean;
  browserGone: boolean;
  /** The refusal of the egress guard that explains a failed navigation, if any. */
  refusal: EgressRefusal | undefined;
}

/** Maps whatever a page operation threw to the error the caller should see. */
export function toRenderError(err: unknown, f: FailureContext): ServiceError {
  if (err instanceof ServiceError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (f.deadlineHit || (err instanceof Error && err.name === 'TimeoutError')) {
    return new DeadlineExceededError(`render: ${f.url} was not done within the ${f.budgetMs} ms budget (while ${f.stage})`, {
      details: { url: f.url, stage: f.stage },
    });
  }
  if (f.browserGone || BROWSER_GONE.test(message)) {
    return new UnavailableError(`render: the browser crashed while ${f.stage} ${f.url}; retry`, { cause: err });
  }
  if (f.refusal) return refusalError(f.url, f.refusal);
  const net = netErrorIn(message);
  if (net && UNREACHABLE.test(net)) {
    return new TargetUnreachableError(`target unreachable: ${net} at ${f.url}`, { details: { url: f.url, netError: net } });
  }
  if (/Download is starting/i.test(message)) {
    return new TargetNotASiteError(`The URL is a file download (${f.url}), not a web page`, { details: { url: f.url, kind: 'not_html' } });
  }
  if (net) return new TargetUnreachableError(`target failed to load: ${net} at ${f.url}`, { details: { url: f.url, netError: net } });
  return new InternalError(`render failed while ${f.stage} ${f.url}: ${message.split('\n')[0]}`, { cause: err });
}
