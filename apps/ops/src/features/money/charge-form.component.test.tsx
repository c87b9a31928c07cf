// The matchers' types (the component project's setup installs them at run time).
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Evidence } from '@ampere/domain/contract/ops-money';
import { ChargeForm } from './charge-form.tsx';

/** The console's "Post a charge" form, the API answered by `answer`. */

const TRIP = '6f1c2b8e-1d2a-4c3b-9e8f-0a1b2c3d4e5f';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const uploaded = (id: string, label: string): Evidence => ({
  id,
  kind: 'photo',
  label,
  value: null,
  contentType: 'image/jpeg',
  bytes: 1234,
  url: `/ops/api/evidence/${id}`,
  inspectionPhotoId: null,
  uploadedAt: '2099-01-01T00:00:00.000Z',
});

function draw(answer: (url: string, init: RequestInit) => Response = () => json(500, {})) {
  const fetchMock = vi.fn((url: string, init: RequestInit) => Promise.resolve(answer(url, init)));
  vi.stubGlobal('fetch', fetchMock);
  const send = vi.fn((body: unknown) =>
    fetch(`/ops/api/trips/${TRIP}/charges`, { method: 'POST', body: JSON.stringify(body) }).then(async (res) => {
      if (!res.ok) {
        const { ApiError } = await import('../../shared/api.ts');
        const data = (await res.json()) as { message: string; field?: string };
        throw new ApiError(res.status, data.message, null, data.field ?? null);
      }
      return res.json() as Promise<unknown>;
    }),
  );
  const onDone = vi.fn();
  render(
    <MantineProvider>
      <ChargeForm tripId={TRIP} submitLabel="Post the charge" send={send} onDone={onDone} onCancel={() => {}} />
    </MantineProvider>,
  );
  return { fetchMock, send, onDone, user: userEvent.setup({ delay: null }) };
}

const photo = (name: string) => new File([new Uint8Array([0xff, 0xd8, 0xff])], name, { type: 'image/jpeg' });

describe('posting a charge in the console', () => {
  it('shows the fee’s published price and evidence rule, and will not post without evidence', async () => {
    const { send, user } = draw();
    expect(screen.getByRole('combobox', { name: 'Fee' })).toHaveValue('cleaning');
    expect(screen.getByTestId('fee-price')).toHaveTextContent('Price: $75.00 each time');
    expect(screen.getByTestId('fee-evidence-rule')).toHaveTextContent('Needs a photo before it can be posted.');
    expect(screen.getByTestId('charge-price')).toHaveTextContent('Cleaning Fee needs evidence first: a photo.');
    // A fixed fee: no amount to type, and no quantity for a fee charged each time.
    expect(screen.queryByRole('textbox', { name: /Amount/ })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Sand and mud all over the rear seats');
    await user.click(screen.getByRole('button', { name: 'Post the charge' }));
    expect(
      await screen.findByText('Cleaning Fee needs evidence first: a photo.', { selector: '[role=alert]' }),
    ).toBeVisible();
    expect(send).not.toHaveBeenCalled();
  });

  it('uploads the photos as they are chosen, prices the charge by the catalogue, and posts it with their ids', async () => {
    let n = 0;
    const { fetchMock, send, onDone, user } = draw((url) => {
      if (url.includes('/evidence')) {
        n += 1;
        return json(201, uploaded(`0000000${n}-aaaa-4bbb-8ccc-000000000000`, `seat ${n}`));
      }
      return json(201, { charges: [] });
    });
    await user.upload(screen.getByLabelText(/Evidence files/), [photo('seat 1.jpg'), photo('seat 2.jpg')]);
    expect(await screen.findAllByText('Uploaded')).toHaveLength(2);
    const upload = fetchMock.mock.calls.find(([url]) => url.includes('/evidence'))!;
    expect(upload[0]).toContain(`/trips/${TRIP}/evidence?kind=photo&label=seat+1`);
    expect((upload[1].headers as Record<string, string>)['content-type']).toBe('image/jpeg');
    expect(screen.getByTestId('charge-price')).toHaveTextContent('The renter is charged $75.00.');

    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Sand and mud all over the rear seats');
    await user.click(screen.getByRole('button', { name: 'Post the charge' }));
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith(7_500, 'Cleaning Fee'));
    expect(send).toHaveBeenCalledWith({
      type: 'cleaning',
      reason: 'Sand and mud all over the rear seats',
      evidenceIds: ['00000001-aaaa-4bbb-8ccc-000000000000', '00000002-aaaa-4bbb-8ccc-000000000000'],
      readings: [],
    });
  });

  it('asks for a quantity only where the catalogue counts one, and prices it as the staff types', async () => {
    const { user } = draw();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Fee' }), 'relocationMileage');
    expect(screen.getByTestId('fee-price')).toHaveTextContent('$1.50 a mile');
    expect(screen.getByTestId('fee-evidence-rule')).toHaveTextContent('Needs a reading before it can be posted.');
    await user.click(screen.getByRole('button', { name: 'Add a reading' }));
    await user.type(screen.getByRole('textbox', { name: 'Reading 1: what' }), 'Odometer at pickup of the car');
    await user.type(screen.getByRole('textbox', { name: 'Reading 1: value' }), '48,210 mi');
    await user.type(screen.getByRole('textbox', { name: 'Miles' }), '12');
    expect(screen.getByTestId('charge-price')).toHaveTextContent('The renter is charged $18.00 (12 × $1.50).');
  });

  it('takes an assessed amount up to the catalogue’s most, and shows the server’s refusal at its field', async () => {
    const { send, user } = draw((url) =>
      url.includes('/evidence')
        ? json(201, uploaded('00000009-aaaa-4bbb-8ccc-000000000000', 'dent'))
        : json(422, { message: 'The reason names a staff member; write what happened to the car.', field: 'reason' }),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Fee' }), 'damage');
    expect(screen.getByTestId('fee-price')).toHaveTextContent('Assessed from the evidence, up to $2,500.00');
    await user.upload(screen.getByLabelText(/Evidence files/), photo('dent.jpg'));
    await screen.findByText('Uploaded');
    const amount = screen.getByRole('textbox', { name: /Amount assessed/ });
    await user.type(amount, '3000');
    expect(screen.getByTestId('charge-price')).toHaveTextContent('Damage');
    expect(screen.getByTestId('charge-price')).toHaveTextContent('at most $2,500.00');
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Dent in the rear door');
    await user.click(screen.getByRole('button', { name: 'Post the charge' }));
    expect(send).not.toHaveBeenCalled();
    expect(amount).toHaveAccessibleDescription(/at most \$2,500.00/);

    await user.clear(amount);
    await user.type(amount, '420.5');
    expect(screen.getByTestId('charge-price')).toHaveTextContent('The renter is charged $420.50.');
    await user.click(screen.getByRole('button', { name: 'Post the charge' }));
    expect(await screen.findByText('The reason names a staff member; write what happened to the car.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(/names a staff member/);
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ type: 'damage', cents: 42_050 }));
  });
});
