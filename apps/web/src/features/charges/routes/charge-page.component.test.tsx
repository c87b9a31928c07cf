import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RenterCharge } from '@ampere/domain/contract/charges';
import { fails, fakeApi, ok } from '../../../test/fake-api.ts';
import { CHICAGO, aUser } from '../../../test/fixtures.ts';
import { findDialog, renderRoutes, signIn } from '../../../test/render.tsx';
import { patterns } from '../../../shared/paths.ts';
import { ChargePage } from './charge-page.tsx';

/** The renter's page of one charge after a trip, the API faked; the times fixed far ahead, whatever day it runs. */

const CHARGE_ID = '3c9f1e2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

const aCharge = (over: Partial<RenterCharge> = {}): RenterCharge => ({
  id: CHARGE_ID,
  tripId: '11111111-2222-4333-8444-555555555555',
  tripReference: 'R-7K2Q',
  timezone: CHICAGO,
  type: 'cleaning',
  label: 'Cleaning Fee',
  when: 'The car needs more than a normal clean: sand, mud, pet hair, spills or rubbish left inside.',
  reason: 'Sand and mud across the rear seats.',
  quantity: 1,
  unitCents: 7_500,
  amount: 7_500,
  status: 'posted',
  statusLabel: 'Posted',
  postedAt: '2099-03-10T16:00:00.000Z',
  onHoldCents: 0,
  fromDepositCents: 7_500,
  toCardCents: 0,
  owedCents: 0,
  refundedCents: 0,
  cardLast4: '4242',
  occurredAt: null,
  externalReference: null,
  disputeOpenUntil: '2099-03-13T16:00:00.000Z',
  canDispute: true,
  dispute: null,
  evidence: [
    { id: 'e1', kind: 'photo', label: 'Rear seat', value: null, contentType: 'image/png', url: '/files/e1.png' },
    { id: 'e2', kind: 'reading', label: 'Odometer at return', value: '48,210 mi', contentType: null, url: null },
  ],
  ...over,
});

async function open(charge: RenterCharge) {
  signIn(aUser());
  const api = fakeApi().on(`GET /api/v1/charges/:chargeId`, ok(charge));
  const page = await renderRoutes(
    [{ path: patterns.trip.charge, element: <ChargePage /> }],
    `/trip/R-7K2Q/charges/${CHARGE_ID}`,
  );
  await screen.findByRole('heading', { level: 1, name: 'Cleaning Fee' });
  return { api, ...page };
}

describe('the renter’s charge page', () => {
  it('shows the fee’s rule, where the money came from, and the evidence; a photo enlarges when tapped', async () => {
    const { user } = await open(aCharge());
    expect(screen.getByText('Sand and mud across the rear seats.')).toBeVisible();
    expect(screen.getByText(/^Cleaning Fee: The car needs more than a normal clean/)).toBeVisible();
    const paid = screen.getByRole('group', { name: 'How it was paid' });
    expect(paid).toHaveTextContent('Pulled from security deposit$75.00');
    const evidence = screen.getByRole('region', { name: 'Evidence' });
    expect(within(evidence).getByText('48,210 mi')).toBeVisible();
    await user.click(within(evidence).getByRole('button', { name: 'Enlarge the photo: Rear seat' }));
    const dialog = await findDialog('Rear seat');
    expect(within(dialog).getByRole('img', { name: 'Rear seat' })).toHaveAttribute('src', '/files/e1.png');
    // The window's end on the pickup place's clock.
    expect(screen.getByRole('region', { name: 'Dispute' })).toHaveTextContent(
      'You can dispute it until Mar 13, 2099, 11:00 AM CDT',
    );
  });

  it('a charge on the deposit hold is to be taken from it, not owed: nothing is still to pay', async () => {
    const { user } = await open(aCharge({ onHoldCents: 475, fromDepositCents: 0, amount: 475, unitCents: 475 }));
    const paid = screen.getByRole('group', { name: 'How it was paid' });
    expect(paid).toHaveTextContent('To be taken from your deposit hold$4.75');
    expect(paid).not.toHaveTextContent(/Still to pay|owed/);
    await user.click(screen.getByRole('button', { name: 'Dispute this charge' }));
    const dispute = screen.getByRole('region', { name: 'Dispute' });
    expect(dispute).toHaveTextContent('the $4.75 to be taken from your deposit hold waits');
    expect(dispute).not.toHaveTextContent(/owed|Still to pay/);
  });

  it('only what waits on the card (declined) is still to pay, and owed', async () => {
    await open(aCharge({ owedCents: 475, fromDepositCents: 0, amount: 475, unitCents: 475, status: 'owed' }));
    expect(screen.getByRole('group', { name: 'How it was paid' })).toHaveTextContent('Still to pay$4.75');
    expect(screen.getByRole('region', { name: 'Dispute' })).toHaveTextContent('the $4.75 owed waits');
  });

  it('a disputed charge not yet taken waits on the dispute: not still to pay', async () => {
    await open(
      aCharge({
        owedCents: 475,
        fromDepositCents: 0,
        amount: 475,
        unitCents: 475,
        status: 'disputed',
        statusLabel: 'Disputed',
        canDispute: false,
        dispute: {
          text: 'I never drove there.',
          openedAt: '2099-03-11T15:00:00.000Z',
          outcome: null,
          staffReason: null,
          decidedAt: null,
        },
      }),
    );
    const paid = screen.getByRole('group', { name: 'How it was paid' });
    expect(paid).toHaveTextContent('Waiting while we review your dispute$4.75');
    expect(paid).not.toHaveTextContent(/Still to pay|owed/);
  });

  it('sends a dispute of at least ten characters, then says it was received', async () => {
    const { api, user } = await open(aCharge());
    api.on(`POST /api/v1/charges/:chargeId/dispute`, (call) =>
      ok(
        aCharge({
          status: 'disputed',
          statusLabel: 'Disputed',
          canDispute: false,
          dispute: {
            text: (call.body as { reason: string }).reason,
            openedAt: '2099-03-11T15:00:00.000Z',
            outcome: null,
            staffReason: null,
            decidedAt: null,
          },
        }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Dispute this charge' }));
    const box = screen.getByRole('textbox', { name: /What is wrong with this charge/ });
    await user.type(box, 'Too short');
    await user.click(screen.getByRole('button', { name: 'Send dispute' }));
    expect(box).toHaveAccessibleDescription(/at least 10 characters/);
    expect(api.callsTo('POST /api/v1/charges/:chargeId/dispute')).toHaveLength(0);
    await user.type(box, ', it was dirty at pickup');
    await user.click(screen.getByRole('button', { name: 'Send dispute' }));
    expect(await screen.findByText('Dispute received')).toBeVisible();
    expect(api.callsTo('POST /api/v1/charges/:chargeId/dispute')[0]!.body).toEqual({
      reason: 'Too short, it was dirty at pickup',
    });
    expect(screen.getByText('Too short, it was dirty at pickup')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Dispute this charge' })).not.toBeInTheDocument();
  });

  it('shows the server’s refusal (the window closed meanwhile) at the form', async () => {
    const { api, user } = await open(aCharge());
    api.on(
      `POST /api/v1/charges/:chargeId/dispute`,
      fails(422, 'Charges can be disputed for 72 hours after they are posted; this one’s window has closed.'),
    );
    await user.click(screen.getByRole('button', { name: 'Dispute this charge' }));
    await user.type(screen.getByRole('textbox', { name: /What is wrong/ }), 'It was dirty at pickup already');
    await user.click(screen.getByRole('button', { name: 'Send dispute' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /What is wrong/ })).toHaveAccessibleDescription(/window has closed/),
    );
  });

  it('shows an accepted dispute with what was refunded, labelled Refund', async () => {
    const decided = {
      text: 'It was dirty at pickup already',
      openedAt: '2099-03-11T15:00:00.000Z',
      decidedAt: '2099-03-12T15:00:00.000Z',
    };
    await open(
      aCharge({
        status: 'refunded',
        statusLabel: 'Refunded',
        refundedCents: 7_500,
        canDispute: false,
        dispute: { ...decided, outcome: 'accepted', staffReason: null },
      }),
    );
    expect(screen.getByText('Dispute accepted')).toBeVisible();
    expect(screen.getByRole('region', { name: 'Dispute' })).toHaveTextContent('We refunded $75.00 to your card');
    expect(screen.getByRole('group', { name: 'How it was paid' })).toHaveTextContent('Refund−$75.00');
  });

  it('shows a rejected dispute with staff’s reason, and no way to dispute again', async () => {
    await open(
      aCharge({
        status: 'upheld',
        statusLabel: 'Dispute rejected',
        canDispute: false,
        dispute: {
          text: 'It was dirty at pickup already',
          openedAt: '2099-03-11T15:00:00.000Z',
          decidedAt: '2099-03-12T15:00:00.000Z',
          outcome: 'rejected',
          staffReason: 'The pickup photos show a clean car.',
        },
      }),
    );
    expect(
      screen.getByText('Dispute rejected', { selector: '.mantine-Alert-title, .mantine-Alert-title *' }),
    ).toBeVisible();
    expect(screen.getByRole('region', { name: 'Dispute' })).toHaveTextContent(
      'The charge stands. The pickup photos show a clean car.',
    );
    expect(screen.queryByRole('button', { name: 'Dispute this charge' })).not.toBeInTheDocument();
  });
});
