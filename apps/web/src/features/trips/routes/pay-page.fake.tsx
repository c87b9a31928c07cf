/**
 * Review & Pay for its component tests: the server behind the page (faked at fetch), opening the
 * page on a trip, filling the card form, and reading what the renter sees and what was sent.
 */
import { screen } from '@testing-library/react';
import type { SavedCard } from '@ampere/domain/contract/account';
import type { Reservation } from '@ampere/domain/contract/booking';
import { type ApiCall, fakeApi, ok } from '../../../test/fake-api.ts';
import { aUser, sandboxSecrets } from '../../../test/fixtures.ts';
import { type Rendered, renderRoutes, signIn } from '../../../test/render.tsx';
import { PayPage } from './pay-page.tsx';

/** The page keeps a trip's payment for the page's life: each test pays for a trip of its own. */
let trips = 0;
export const newId = () => `AMP-PAY-${String(++trips).padStart(4, '0')}`;

/** The trip as the server has it once paid: its pending items settled, a new booking Pending. */
export const settled = (r: Reservation): Reservation => ({
  ...r,
  status: r.status === 'Started' ? 'Pending' : r.status,
  requested_change: null,
  transactions: r.transactions.map((t) =>
    t.status === 'Pending' && t.category !== 'Deposit' ? { ...t, status: 'Successful' } : t,
  ),
});

/**
 * The server behind Review & Pay, as far as the page asks it: the renter, the trip (as it stands
 * after each call), the payment, the saved cards, the soft credit check, the sandbox gateway and the
 * confirmation. A test changes what it answers with `api.on`.
 */
export function payServer(trip: Reservation, opts: { cards?: SavedCard[] } = {}) {
  const user = aUser();
  signIn(user);
  const server = { trip };
  const api = fakeApi()
    .on('GET /api/v1/users', ok({ user }))
    .on('GET /api/v1/reservations/:id', () => ok({ reservation: server.trip }))
    .on('POST /api/v1/payments', () => ok({ reservation: server.trip, stripe: sandboxSecrets() }))
    .on('GET /api/v1/users/credit-cards', ok({ cards: opts.cards ?? [] }))
    .on('POST /api/v1/reservations/eligibility-check', ok({ is_eligible: true }))
    .on('POST /api/sandbox/v1/payment_intents/confirm', ({ body }) => {
      const { client_secret, payment_method } = body as { client_secret: string; payment_method?: string };
      return ok({
        id: client_secret.replace('_secret', ''),
        status: client_secret === sandboxSecrets().deposit_client_secret ? 'requires_capture' : 'succeeded',
        payment_method: payment_method ?? 'pm_new_card',
      });
    })
    .on('POST /api/v1/reservations/confirm', () => {
      server.trip = settled(server.trip);
      return ok({ reservation: server.trip });
    });
  return { api, server };
}

export async function openPayPage(trip: Reservation): Promise<Rendered> {
  const page = await renderRoutes(
    [
      { path: '/trip/:id/pay', Component: PayPage },
      { path: '/trip/:id', element: <h1>My Trip</h1> },
      { path: '/trip/:id/confirmation', element: <h1>Confirmation</h1> },
    ],
    `/trip/${trip.platform_id}/pay`,
  );
  await screen.findByRole('heading', { name: 'Review & Pay', level: 1 });
  return page;
}

/** A card expiring in December two years from now: valid whatever day the test runs. */
const expiry = () => `12${String((new Date().getFullYear() + 2) % 100).padStart(2, '0')}`;

/** Fills the card form as a browser's autofill or a paste would: each field in one go. */
export async function typeCard({ user }: Rendered, number: string): Promise<void> {
  for (const [label, value] of [
    ['Card number', number],
    ['Expiration', expiry()],
    ['Security code', '123'],
    ['ZIP code', '37203'],
  ] as const) {
    const field = screen.getByLabelText(label);
    await user.clear(field);
    await user.click(field);
    await user.paste(value);
  }
}

export const breakdown = (name = 'Price breakdown') => screen.getByRole('group', { name });
/** The amount due beside the submit button (the bar that stays at the foot of a phone's screen). */
export const dueNow = () => screen.getByText('Due now').parentElement!;
const route = (c: ApiCall) => `${c.method} ${c.path}`;
/** The writes made since the `from`-th call (the page's reads, and analytics, left out). */
export const writesSince = (calls: ApiCall[], from: number) =>
  calls
    .slice(from)
    .map(route)
    .filter((r) => !r.startsWith('GET ') && r !== 'POST /api/v1/events');
export const events = () => (window.__ampereEvents ?? []).map((e) => ({ name: e.name, ...e.properties }));
