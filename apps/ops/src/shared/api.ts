import { OPS_API } from '@ampere/domain/contract/ops';

/** A refused or failed call, in the API's error shape: what to show, and which field it is about. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly field: string | null,
  ) {
    super(message);
  }
}

/** Fired when a console call finds the session over: the app goes back to sign-in with the message. */
export const SESSION_ENDED_EVENT = 'ops:session-ended';

const NETWORK_MESSAGE = 'The console could not reach the server. Check your connection and try again.';

/**
 * Calls the console's API with the staff cookie. A 401 from any call but sign-in's own means the
 * session is over: the app is told, and goes back to the sign-in page with the server's words.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${OPS_API}${path}`, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError(0, NETWORK_MESSAGE, null, null);
  }
  const text = await res.text();
  const data = text ? (JSON.parse(text) as unknown) : null;
  if (res.ok) return data as T;
  const body = (data ?? {}) as { message?: string; code?: string; field?: string };
  const error = new ApiError(
    res.status,
    body.message ?? `The server answered ${res.status}. Try again in a moment.`,
    body.code ?? null,
    body.field ?? null,
  );
  if (res.status === 401 && !path.startsWith('/auth/') && path !== '/me')
    window.dispatchEvent(new CustomEvent(SESSION_ENDED_EVENT, { detail: error.message }));
  throw error;
}

export const errorText = (err: unknown): string =>
  err instanceof ApiError ? err.message : 'Something went wrong. Try again in a moment.';
