import { type APIRequestContext, type Page, expect } from '@playwright/test';

/** A fresh, valid US mobile number for one test: +1 615 and seven digits (exchange 2-9, never N11). */
export function uniquePhone(): string {
  for (;;) {
    const exchange = `${2 + Math.floor(Math.random() * 8)}${Math.floor(Math.random() * 100)
      .toString()
      .padStart(2, '0')}`;
    if (exchange.endsWith('11')) continue;
    return `+1615${exchange}${Math.floor(Math.random() * 10_000)
      .toString()
      .padStart(4, '0')}`;
  }
}

/** '+16155550123' → '(615) 555-0123', as the login page writes it. */
export const formatUsPhone = (e164: string) => e164.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3');

/**
 * The newest sign-in code texted to `phone`, read from the built-in sender's outbox
 * (GET /api/dev/sms), where the renter's trip texts arrive too. Polls until a message sent after `since` (epoch ms) arrives.
 */
export async function readCode(request: APIRequestContext, phone: string, since = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/dev/sms', { params: { phone } });
        if (!res.ok()) return undefined;
        const { messages } = (await res.json()) as { messages: { body: string; sent_at: string }[] };
        // The outbox also holds the renter's trip texts: the newest sign-in code among them.
        const newest = messages.find((m) => Date.parse(m.sent_at) >= since - 1000 && /\bcode is \d{6}\b/.test(m.body));
        code = newest ? /\bcode is (\d{6})\b/.exec(newest.body)?.[1] : undefined;
        return code;
      },
      { message: `a code texted to ${phone}`, timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}

export interface SignedIn {
  session_token: string;
  session_expires_at: string;
  user: { id: string; phone: string; first_name: string | null; email: string | null };
}

/**
 * Signs in through the API (send + verify), stores the session in localStorage as the app does,
 * then opens `path`. CONVENTIONS: fixtures log in through the API, not the login page.
 */
export async function signInViaApi(page: Page, phone = uniquePhone(), path = '/'): Promise<SignedIn> {
  const sent = await page.request.post('/api/v1/auth/sms/send', { data: { phone } });
  expect(sent.ok(), await sent.text()).toBe(true);
  const e164 = ((await sent.json()) as { phone: string }).phone;
  const code = await readCode(page.request, e164);
  const verified = await page.request.post('/api/v1/auth/sms/verify', { data: { phone: e164, code } });
  expect(verified.ok(), await verified.text()).toBe(true);
  const session = (await verified.json()) as SignedIn;
  // Any same-origin page gives access to the app's localStorage; the health check is the cheapest.
  await page.goto('/healthz');
  await page.evaluate((s) => {
    localStorage.setItem('session_token', s.session_token);
    localStorage.setItem('session_expires_at', s.session_expires_at);
    localStorage.setItem('user', JSON.stringify(s.user));
    // As the app marks a signed-in browser for the server (decision 046).
    document.cookie = 'ampere_signed_in=1; path=/; samesite=lax';
  }, session);
  await page.goto(path);
  return session;
}

/**
 * Has the server leave this browser's pages to be drawn in the browser, as for a renter signed in
 * before the session cookie existed (decision 046): for tests of what a page shows while its data
 * is still on the way, which a page the server drew never shows.
 */
export async function drawPagesInBrowser(page: Page): Promise<void> {
  await page.context().clearCookies({ name: 'ampere_session' });
}
