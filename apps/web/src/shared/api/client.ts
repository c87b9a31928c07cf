import { SESSION_EXPIRES_HEADER, SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import { clearSession, getSession, keepSessionUntil } from '../auth/session-store.ts';

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

/**
 * How calls reach the API: the browser's fetch, or, when the server draws a page's first screen
 * (app/entry-server.tsx), the server's own handler in-process. Page code does not know which.
 */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>;

let transport: ApiTransport = (url, init) => fetch(url, init);

export function setApiTransport(next: ApiTransport): void {
  transport = next;
}

/** The live session token (null when signed out or expired). */
export function sessionToken(): string | null {
  return getSession()?.token ?? null;
}

/** Headers for a call to our API: the session header when signed in. */
export function authHeaders(): Record<string, string> {
  const token = sessionToken();
  return token ? { [SESSION_HEADER]: token } : {};
}

/** Spec 4: a 401 or 403 from the product's own API clears the stored user and session. */
export function noteAuthFailure(status: number): void {
  if (status === 401 || status === 403) clearSession();
}

export async function api<T>(
  path: string,
  init: {
    method?: string;
    query?: Record<string, string | number | undefined | null>;
    body?: unknown;
    signal?: AbortSignal;
    headers?: Record<string, string>;
  } = {},
): Promise<T> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(init.query ?? {}))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  const auth = authHeaders();
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers, ...auth };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await transport(qs ? `${path}?${qs}` : path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  // Each use renews the session (decision 072): the stored end follows the server's.
  const until = res.headers.get(SESSION_EXPIRES_HEADER);
  if (until && auth[SESSION_HEADER]) keepSessionUntil(auth[SESSION_HEADER], until);
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    noteAuthFailure(res.status);
    const body = (data ?? {}) as { message?: string; code?: string; field?: string };
    throw new ApiError(res.status, body.message ?? res.statusText, body.code, body.field, data);
  }
  return data as T;
}
