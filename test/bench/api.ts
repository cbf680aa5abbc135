/** One call to the HTTP API as a client makes it: the whole body read, success judged by the envelope. */

export interface ApiAnswer {
  ok: boolean;
  status: number;
  /** The parsed envelope, or undefined when the body was not JSON. */
  body: { success?: boolean; data?: unknown; error?: string } | undefined;
}

export interface ApiClient {
  baseUrl: string;
  call(path: string, params: Record<string, string>, opts?: { timeoutMs?: number }): Promise<ApiAnswer>;
}

export function apiClient(baseUrl: string, apiKey: string): ApiClient {
  return {
    baseUrl,
    async call(path, params, opts = {}) {
      const qs = new URLSearchParams(params).toString();
      const res = await fetch(`${baseUrl}${path}${qs ? `?${qs}` : ''}`, {
        headers: { 'x-api-key': apiKey },
        signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
      });
      const text = await res.text();
      let body: ApiAnswer['body'];
      try {
        body = JSON.parse(text) as ApiAnswer['body'];
      } catch {
        body = undefined;
      }
      return { ok: res.status === 200 && body?.success === true, status: res.status, body };
    },
  };
}
