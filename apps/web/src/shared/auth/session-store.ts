import type { SessionResult, User } from '@ampere/domain/contract/account';
import { SIGNED_IN_COOKIE } from '@ampere/domain/contract/first-screen';

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
  const token = readStored(TOKEN);
  const expiresAt = readStored(EXPIRES);
  if (!token || !expiresAt) return null;
  const raw = readStored(USER);
  try {
    return { token, expiresAt, user: raw ? (JSON.parse(raw) as User) : null };
  } catch {
    return null;
  }
}

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

const isLive = (s: Session | null | undefined): s is Session => !!s && Date.parse(s.expiresAt) > Date.now();

/**
 * Tells the server, on the next page request, that this browser is signed in (the cookie carries
 * no token), so it sends the page without a signed-out first screen (decision 046).
 */
function markSignedIn(session: Session | null) {
  if (typeof document === 'undefined') return;
  const marked = document.cookie.split('; ').some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`));
  if (session)
    document.cookie = `${SIGNED_IN_COOKIE}=1; path=/; expires=${new Date(session.expiresAt).toUTCString()}; samesite=lax`;
  else if (marked) document.cookie = `${SIGNED_IN_COOKIE}=; path=/; max-age=0; samesite=lax`;
}

function emit() {
  current = read();
  markSignedIn(isLive(current) ? current : null);
  clearTimeout(expiryTimer);
  // Tell the page when the session runs out, so its guard sends the renter to sign in.
  if (isLive(current))
    expiryTimer = setTimeout(emit, Math.min(Date.parse(current.expiresAt) - Date.now() + 50, 2 ** 31 - 1));
  for (const l of listeners) l();
}

/**
 * The session a first screen is drawn with (decision 046): on the server, the renter the request is
 * for (app/entry-server.tsx); in the browser, while it takes a drawn screen over, the renter that
 * screen was drawn for (main.tsx). Signed out unless set.
 */
let drawnSession: () => Session | null = () => null;
export function setDrawnSession(source: () => Session | null): void {
  drawnSession = source;
}
export const getDrawnSession = (): Session | null => drawnSession();

/** The live session, or null when signed out or expired. Stable between changes (useSyncExternalStore). */
export function getSession(): Session | null {
  // The server has no storage: its session is the request's.
  if (typeof window === 'undefined') return drawnSession();
  if (current === undefined) {
    current = read();
    markSignedIn(isLive(current) ? current : null);
  }
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

/**
 * The server renewed the session used with `token` to end at `expiresAt` (decision 072): the stored
 * end moves there, if that session is still the stored one and the end is later.
 */
export function keepSessionUntil(token: string, expiresAt: string): void {
  const stored = read();
  const end = Date.parse(expiresAt);
  if (!stored || stored.token !== token || Number.isNaN(end) || end <= Date.parse(stored.expiresAt)) return;
  write([[EXPIRES, new Date(end).toISOString()]]);
}

/** Keeps the stored renter in step with the server (the token stays). */
export function setSessionUser(user: User): void {
  const json = JSON.stringify(user);
  // The same renter as stored changes nothing: every page re-read on load would otherwise redraw
  // whatever shows the session (the navbar, the page) for no change.
  if (read() && readStored(USER) !== json) write([[USER, json]]);
}

/** Spec 4: clears the stored user and session. */
export function clearSession(): void {
  write([
    [TOKEN, null],
    [EXPIRES, null],
    [USER, null],
  ]);
}
