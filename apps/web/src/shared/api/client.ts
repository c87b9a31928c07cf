/** The one HTTP client for the product's API. Errors carry the status and the server's message. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly field?: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const SESSION_HEADER = 'stytch_auth';

export function sessionToken(): string | null {
  try {
    return localStorage.getItem('session_token');
  } catch {
    return null;
  }
}

export async function api<T>(path: string, init: { method?: string; query?: Record<string, string | number | undefined | null>; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = sessionToken();
  if (token) headers[SESSION_HEADER] = token;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(qs ? `${path}?${qs}` : path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const body = (data ?? {}) as { message?: string; code?: string; field?: string };
    throw new ApiError(res.status, body.message ?? res.statusText, body.code, body.field, data);
  }
  return data as T;
}
