// The matchers' types (the component project's setup installs them at run time).
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TripPayment } from '@ampere/domain/contract/ops-money';
import { REFUND_LIMIT_CENTS } from '@ampere/domain/staff';
import { RefundForm } from './refund-form.tsx';

/** The console's refund form, as a manager (a limit) and the owner (none) see it; the API answered by `answer`. */

const payment: TripPayment = {
  paymentId: '5a0b7c3e-2d1f-4e6a-8b9c-1d2e3f4a5b6c',
  kind: 'CHARGE',
  label: 'Booking',
  status: 'succeeded',
  statusLabel: 'Partly refunded',
  amount: 80_000,
  capturedCents: 80_000,
  refundedCents: 5_000,
  refundableCents: 75_000,
  cardBrand: 'visa',
  cardLast4: '4242',
  at: '2099-01-01T00:00:00.000Z',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function draw(limitCents: number | null, answer: () => Response = () => json(201, {})) {
  const fetchMock = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(answer()));
  vi.stubGlobal('fetch', fetchMock);
  const onDone = vi.fn();
  render(
    <MantineProvider>
      <RefundForm payment={payment} limitCents={limitCents} onDone={onDone} onCancel={() => {}} />
    </MantineProvider>,
  );
  return { fetchMock, onDone, user: userEvent.setup({ delay: null }) };
}

const managerLimit = REFUND_LIMIT_CENTS.manager!;

describe('refunding a payment in the console', () => {
  it('shows a manager’s limit, starts at it, and refuses more than it without calling the server', async () => {
    const { fetchMock, user } = draw(managerLimit);
    expect(screen.getByTestId('refund-limit')).toHaveTextContent('Your role may refund up to $500.00 at a time.');
    expect(screen.getByText('$750.00')).toBeVisible();
    const amount = screen.getByRole('textbox', { name: /Amount to refund/ });
    expect(amount).toHaveValue('$500.00');
    await user.clear(amount);
    await user.type(amount, '600');
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Car was not clean at pickup');
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    expect(amount).toHaveAccessibleDescription(/Over your limit: your role may refund up to \$500.00/);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('needs a reason, and sends the amount in cents', async () => {
    const { fetchMock, onDone, user } = draw(managerLimit);
    const amount = screen.getByRole('textbox', { name: /Amount to refund/ });
    await user.clear(amount);
    await user.type(amount, '120.25');
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    expect(screen.getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(/at least 5 characters/);
    expect(fetchMock).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Late handover at the lot');
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith(12_025));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toContain(`/payments/${payment.paymentId}/refunds`);
    expect(JSON.parse(init.body as string)).toEqual({ cents: 12_025, reason: 'Late handover at the lot' });
  });

  it('lets the owner refund all that is left, and shows the server’s refusal at the amount', async () => {
    const { fetchMock, user } = draw(null, () =>
      json(403, { message: 'Your role may refund up to $500.00 at a time.', code: 'FORBIDDEN' }),
    );
    expect(screen.getByTestId('refund-limit')).toHaveTextContent('Your role has no refund limit.');
    expect(screen.getByRole('textbox', { name: /Amount to refund/ })).toHaveValue('$750.00');
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Trip cancelled by us');
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    // All that is left goes without an amount.
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body as string)).toEqual({ reason: 'Trip cancelled by us' });
    expect(
      await screen.findByText('Your role may refund up to $500.00 at a time.', {
        selector: '.mantine-InputWrapper-error, [id$=error]',
      }),
    ).toBeVisible();
  });
});
