import { describe, expect, it, vi } from 'vitest';
import { SESSION_EXPIRES_HEADER } from '@ampere/domain/contract/first-screen';
import { aUser } from '../../test/fixtures.ts';
import { getSession, setSession } from '../auth/session-store.ts';
import { api } from './client.ts';

/** The API answering every call with the session's end it now holds (decision 072). */
function answersWithEnd(end: string) {
  vi.stubGlobal('fetch', async () => new Response('{}', { status: 200, headers: { [SESSION_EXPIRES_HEADER]: end } }));
}

describe('a session renewed by use (decision 072)', () => {
  const inMinutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

  it('the end the API answers with becomes the stored end, so the browser keeps the renter signed in', async () => {
    setSession({ session_token: 'tok-a', session_expires_at: inMinutes(5), user: aUser() });
    const renewed = inMinutes(1440);
    answersWithEnd(renewed);
    await api('/api/v1/users');
    expect(getSession()?.expiresAt).toBe(renewed);
  });

  it('an earlier end, or the end of a session no longer stored, changes nothing', async () => {
    const end = inMinutes(600);
    setSession({ session_token: 'tok-b', session_expires_at: end, user: aUser() });
    answersWithEnd(inMinutes(300));
    await api('/api/v1/users');
    expect(getSession()?.expiresAt).toBe(end);

    // Signed in again as someone else while a call made with the old session was under way.
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    const call = api('/api/v1/users');
    setSession({ session_token: 'tok-c', session_expires_at: end, user: aUser() });
    answer(new Response('{}', { status: 200, headers: { [SESSION_EXPIRES_HEADER]: inMinutes(1440) } }));
    await call;
    expect(getSession()).toMatchObject({ token: 'tok-c', expiresAt: end });
  });
});
