/** Node socket error codes as the Chromium net error a direct connection would have reported. */
const BY_ERRNO: Record<string, string> = {
  ECONNREFUSED: 'net::ERR_CONNECTION_REFUSED',
  ECONNRESET: 'net::ERR_CONNECTION_RESET',
  ENOTFOUND: 'net::ERR_NAME_NOT_RESOLVED',
  EAI_AGAIN: 'net::ERR_NAME_NOT_RESOLVED',
  EAI_NODATA: 'net::ERR_NAME_NOT_RESOLVED',
  ETIMEDOUT: 'net::ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
  EPIPE: 'net::ERR_CONNECTION_CLOSED',
};

export function netErrorOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return (code && BY_ERRNO[code]) || 'net::ERR_CONNECTION_FAILED';
}
