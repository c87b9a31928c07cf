import { expect } from 'vitest';
import { hasPendingCharges } from '@ampere/domain/booking';
import type { Reservation } from '@ampere/domain/contract/booking';
import { homeTrip } from '@ampere/domain/home';
import { formatTotal } from '@ampere/domain/money';
import { paidCents, receiptView } from '@ampere/domain/receipt';
import { pdfTextLines } from '../src/pdf/text.ts';
import type { TestContext } from './harness.ts';
import type { SignedIn } from './sessions.ts';
import { paidPerLedger, takenByProvider } from './trips.ts';

/**
 * Everything a renter can read about one trip, read as the pages read it, and the books that must
 * agree on it (decision 055): the provider's own records, the ledger, the receipt and its PDFs.
 */

interface Request {
  method?: 'GET' | 'POST' | 'PATCH';
  url: string;
  payload?: object;
  headers?: Record<string, string>;
}

/**
 * One call a renter's page makes, answered with one of `allowed` statuses (each 4xx among them is a
 * refusal the page expects and shows); anything else, a 5xx above all, fails with where and what.
 */
export async function call(ctx: TestContext, where: string, req: Request, allowed: number[] = [200]) {
  const res = await ctx.app.inject({ method: req.method ?? 'GET', ...req });
  if (!allowed.includes(res.statusCode))
    throw new Error(
      `${where}: ${req.method ?? 'GET'} ${req.url} answered ${res.statusCode} (expected ${allowed.join(' or ')}): ${res.body.slice(0, 600)}`,
    );
  return res;
}

const LIST_OF: Record<string, 'upcoming' | 'active' | 'past' | 'canceled'> = {
  Started: 'upcoming',
  Pending: 'upcoming',
  'On Rent': 'active',
  Returned: 'past',
  Canceled: 'canceled',
};

/** The stages a journey reads at; the full reading (every page and both PDFs) at some of them and at the end. */
export const STAGES = [
  'booked',
  'changed before paying',
  'cancelled unpaid',
  'lapsed',
  'paid',
  'dates changed',
  'cancelled',
  'on rent',
  'extended',
  'returned',
] as const;
export type Stage = (typeof STAGES)[number] | 'at the end';

/**
 * Reads the trip page and its receipt, and with `full` also My Trips and home, the receipt through a
 * new link, both PDFs, the pay page's data and the key page; then checks the books: what the
 * provider kept equals what the ledger says was paid, the receipt's total, the shared receipt's and
 * the trip page's, to the cent; the worded total is that amount, and the PDFs read print it.
 */
export async function readEverything(
  ctx: TestContext,
  who: SignedIn,
  platformId: string,
  where: Stage,
  full: boolean,
): Promise<Reservation> {
  const as = { headers: who.headers };
  const get = (url: string, allowed?: number[]) => call(ctx, where, { url, ...as }, allowed);
  const trip = (await get(`/api/v1/reservations/${platformId}`)).json().reservation as Reservation;
  const receipt = (await get(`/api/v1/reservations/${platformId}/receipt`)).json();
  const shared = full ? await readTheRest(ctx, who, trip, where) : null;

  const { id } = await ctx.handle.db
    .selectFrom('reservations')
    .select('id')
    .where('platform_id', '=', platformId)
    .executeTakeFirstOrThrow();
  const total = receipt.total as number;
  const provider = await takenByProvider(ctx.handle.db, id);
  expect(
    {
      ledger: await paidPerLedger(ctx.handle.db, id),
      receipt: total,
      sharedReceipt: shared?.receipt ? shared.receipt.total : total,
      tripPage: paidCents(trip.transactions),
    },
    `${where}: the provider kept ${provider}¢; the books should all say so`,
  ).toEqual({ ledger: provider, receipt: provider, sharedReceipt: provider, tripPage: provider });
  const worded = formatTotal(total);
  expect(receiptView(receipt).total, `${where}: the receipt page's total`).toBe(worded);
  if (shared?.receipt) expect(receiptView(shared.receipt).total, `${where}: the shared receipt's total`).toBe(worded);
  for (const [name, pdf] of Object.entries(shared?.pdfs ?? {}))
    expect(pdfTextLines(pdf).join('\n'), `${where}: the ${name}`).toContain(worded);
  return trip;
}

/** The other pages: My Trips and home, the shared receipt and both PDFs, the pay page's data, the key page. */
async function readTheRest(ctx: TestContext, who: SignedIn, trip: Reservation, where: Stage) {
  const as = { headers: who.headers };
  const get = (url: string, allowed?: number[]) => call(ctx, where, { url, ...as }, allowed);
  const platformId = trip.platform_id;

  // My Trips, and the home page (the same lists, its trip card chosen by the domain's rule).
  const lists = (await get('/api/v1/reservations')).json() as Record<(typeof LIST_OF)[string], Reservation[]>;
  const listed = Object.entries(lists).flatMap(([name, trips]) =>
    trips.filter((t) => t.platform_id === platformId).map((t) => ({ name, t })),
  );
  expect(
    listed.map(({ name, t }) => [name, t.status, t.payment_balance]),
    `${where}: My Trips`,
  ).toEqual([[LIST_OF[trip.status], trip.status, trip.payment_balance]]);
  const card = trip.status === 'On Rent' || trip.status === 'Pending' ? platformId : null;
  expect(homeTrip(lists)?.platform_id ?? null, `${where}: the home page's trip card`).toBe(card);
  await get('/api/v1/users');

  // The receipt through a link made now (refused while the trip is unpaid), and the PDFs.
  const unpaid = trip.status === 'Started';
  const link = await call(
    ctx,
    where,
    { method: 'POST', url: `/api/v1/reservations/${platformId}/receipt-token`, ...as },
    [unpaid ? 409 : 201],
  );
  const token = unpaid ? null : (link.json().token as string);
  const receipt = token
    ? (await call(ctx, where, { url: `/api/admin/v1/transactions/receipts?token=${token}` })).json()
    : null;
  const pdfs: Record<string, Buffer> = {
    'receipt PDF': (await get(`/api/v1/reservations/${platformId}/receipt/pdf`)).rawPayload,
  };
  // The shared PDF waits, as its page does, for the car to have gone out: a 409 before that.
  if (token) {
    const ready = trip.rides.length > 0;
    const res = await call(ctx, where, { url: `/api/admin/v1/transactions/receipts/pdf?token=${token}` }, [
      ready ? 200 : 409,
    ]);
    if (ready) pdfs['shared receipt PDF'] = res.rawPayload;
  }

  // The pay page: the renter, the trip, a payment made ready when something is owed, the saved cards.
  if (hasPendingCharges(trip.transactions)) {
    await call(ctx, where, { method: 'POST', url: '/api/v1/payments', payload: { platform_id: platformId }, ...as });
    await get(`/api/v1/reservations/${platformId}`);
  }
  await get('/api/v1/users/credit-cards');
  // The key page, while the trip has a key.
  if (trip.key) await call(ctx, where, { url: `/api/v1/keys/${trip.key.token}` });
  return { receipt, pdfs };
}
