import type { SessionResult, User } from '@ampere/domain/contract/account';

/**
 * The signed-in session (spec 4): the session token, when it ends and the renter, kept in
 * localStorage so a reload or a second tab stays signed in. A session past its end counts as
 * signed out. Components read it through useSession(); everything else through getSession().
 */
export interface Session {
  token: string;
  expiresAt: string;
  user: User | null;
}

const TOKEN = 'session_token';
const EXPIRES = 'session_expires_at';
const USER = 'user';

const listeners = new Set<() => void>();
let current: Session | null | undefined;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function read(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN);
    const expiresAt = localStorage.getItem(EXPIRES);
    if (!token || !expiresAt) return null;
    const raw = localStorage.getItem(USER);
    return { token, expiresAt, user: raw ? (JSON.parse(raw) as User) : null };
  } catch {
    return null;
  }
}

const isLive = (s: Session | null | undefined): s is Session => !!s && Date.parse(s.expiresAt) > Date.now();

function emit() {
  current = read();
  clearTimeout(expiryTimer);
  // Tell the page when the session runs out, so its guard sends the renter to sign in.
  if (isLive(current))
    expiryTimer = setTimeout(emit, Math.min(Date.parse(current.expiresAt) - Date.now() + 50, 2 ** 31 - 1));
  for (const l of listeners) l();
}

/** The live session, or null when signed out or expired. Stable between changes (useSyncExternalStore). */
export function getSession(): Session | null {
  if (current === undefined) current = read();
  return isLive(current) ? current : null;
}

export function subscribeSession(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

function onStorage(e: StorageEvent) {
  if (e.key === null || e.key === TOKEN || e.key === EXPIRES || e.key === USER) emit();
}

function write(entries: [string, string | null][]) {
  try {
    for (const [k, v] of entries) {
      if (v === null) localStorage.removeItem(k);
      else localStorage.setItem(k, v);
    }
  } catch {
    // Storage refused (private mode, quota): the session simply does not persist.
  }
  emit();
}

export function setSession(result: SessionResult): void {
  write([
    [TOKEN, result.session_token],
    [EXPIRES, result.session_expires_at],
    [USER, JSON.stringify(result.user)],
  ]);
}

/** Keeps the stored renter in step with the server (the token stays). */
export function setSessionUser(user: User): void {
  const json = JSON.stringify(user);
  // The same renter as stored changes nothing: every page re-read on load would otherwise redraw
  // whatever shows the session (the navbar, the page) for no change.
  if (read() && readStored(USER) !== json) write([[USER, json]]);
}

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Spec 4: clears the stored user and session. */
export function clearSession(): void {
  write([
    [TOKEN, null],
    [EXPIRES, null],
    [USER, null],
  ]);
}
