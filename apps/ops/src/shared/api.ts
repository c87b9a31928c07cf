import { OPS_API } from '@ampere/domain/contract/ops';

/** A refused or failed call, in the API's error shape: what to show, and which field it is about. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly field: string | null,
    /** The rest of the error's body: what a refusal lists (a CSV import's problems, row by row). */
    readonly body: Record<string, unknown> = {},
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
    body,
  );
  if (res.status === 401 && !path.startsWith('/auth/') && path !== '/me')
    window.dispatchEvent(new CustomEvent(SESSION_ENDED_EVENT, { detail: error.message }));
  throw error;
}

export const errorText = (err: unknown): string =>
  err instanceof ApiError ? err.message : 'Something went wrong. Try again in a moment.';

/**
 * Sends a body that is not JSON (a photo, a CSV file) as it is, with its own content type, and
 * reports how much of it has gone up: fetch cannot tell upload progress, XMLHttpRequest can.
 * Errors and an ended session are handled as `api` handles them.
 */
export function sendRaw<T>(
  path: string,
  init: { method?: string; body: Blob | string; contentType: string; onProgress?: (fraction: number) => void },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? 'POST', `${OPS_API}${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', init.contentType);
    if (init.onProgress) {
      const report = init.onProgress;
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) report(event.loaded / event.total);
      };
    }
    xhr.onerror = () => reject(new ApiError(0, NETWORK_MESSAGE, null, null));
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as T);
      const body = (data ?? {}) as { message?: string; code?: string; field?: string };
      const error = new ApiError(
        xhr.status,
        body.message ??
          (xhr.status === 413
            ? 'The file is too large for the server to take.'
            : `The server answered ${xhr.status}. Try again in a moment.`),
        body.code ?? null,
        body.field ?? null,
        body,
      );
      if (xhr.status === 401) window.dispatchEvent(new CustomEvent(SESSION_ENDED_EVENT, { detail: error.message }));
      reject(error);
    };
    xhr.send(init.body);
  });
}
