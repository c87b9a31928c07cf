// The matchers' types (the component project's setup installs them at run time).
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StaffMe } from '@ampere/domain/contract/ops';
import type { CarSummary } from '@ampere/domain/contract/ops-fleet';
import { PERMISSIONS, type StaffAction, type StaffRole } from '@ampere/domain/staff';
import { CarHolds } from './car-holds.tsx';

/** The console's hold widget as a role sees it, the API answered by `answer`. */

const car: CarSummary = {
  id: 7,
  vin: '5YJ3E1EA1SF100067',
  year: 2025,
  model: 'Model 3',
  modelId: 1,
  colour: 'BLACK',
  locationId: '3',
  locationName: 'Dallas Uptown Garage',
  timezone: 'America/Chicago',
  dailyRateCents: 8200,
  odometer: 120,
  batteryPercent: 80,
  status: 'available',
  retiredAt: null,
  selfServe: true,
  licensePlate: null,
};

const laterHold = {
  kind: 'hold' as const,
  id: '2b1c6a9e-7d6f-4f57-9a55-3c1e0f1d2a10',
  label: 'cleaning',
  status: 'active',
  from: '2099-01-10T15:00:00.000Z',
  until: '2099-01-11T15:00:00.000Z',
  note: 'Deep clean',
};

function draw(role: StaffRole, answer: (url: string, init: RequestInit) => Response) {
  const fetchMock = vi.fn((url: string, init: RequestInit) => Promise.resolve(answer(url, init)));
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const actions = (Object.keys(PERMISSIONS) as StaffAction[]).filter((a) => PERMISSIONS[a].includes(role));
  queryClient.setQueryData<StaffMe>(['me'], {
    id: 's1',
    name: 'Sam',
    phone: '+16155550100',
    role,
    locationIds: 'all',
    actions,
    sessionEndsAt: '2099-01-01T00:00:00.000Z',
  });
  const onChanged = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <CarHolds car={car} timeline={[laterHold]} zoneNote="Times are in Chicago." onChanged={onChanged} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { fetchMock, onChanged, user: userEvent.setup({ delay: null }) };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('a car’s holds in the console', () => {
  it('sends the period typed on the lot’s clock, and shows a clash’s 409 under Starts, naming the trip', async () => {
    const message =
      'The car is booked then: trip AMP-7K3Q9X (its turnaround included). Choose other hours or move the trip first.';
    const { fetchMock, onChanged, user } = draw('agent', () =>
      json(409, { statusCode: 409, code: 'CONFLICT', message, field: 'startsAt' }),
    );
    await user.click(screen.getByRole('button', { name: 'Put on hold' }));
    const form = screen.getByRole('region', { name: 'Put the car on hold' });
    await user.selectOptions(within(form).getByLabelText('Reason'), 'service');
    await user.type(within(form).getByLabelText(/^Starts/), '2099-01-05T09:00');
    await user.type(within(form).getByLabelText(/^Ends/), '2099-01-06T17:30');
    await user.type(within(form).getByLabelText('Note'), 'Brakes');
    await user.click(within(form).getByRole('button', { name: 'Put on hold' }));

    const starts = within(form).getByLabelText(/^Starts/);
    expect(await within(form).findByText(message)).toBeInTheDocument();
    expect(starts).toHaveAttribute('aria-invalid', 'true');
    expect(starts.getAttribute('aria-describedby') ?? '').toMatch(/error/);
    expect(onChanged).not.toHaveBeenCalled();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/ops/v1/cars/7/holds');
    // 9:00 and 17:30 in Chicago in January (CST, UTC−6).
    expect(JSON.parse(init.body as string)).toEqual({
      reason: 'service',
      note: 'Brakes',
      startsAt: '2099-01-05T15:00:00.000Z',
      endsAt: '2099-01-06T23:30:00.000Z',
    });
  });

  it('times in the timeline are on the lot’s clock with the zone named', () => {
    draw('viewer', () => json(200, {}));
    const row = screen.getByRole('row', { name: /Hold: Cleaning/ });
    expect(row).toHaveTextContent('Jan 10, 2099, 9:00 AM CST');
    expect(row).toHaveTextContent('Jan 11, 2099, 9:00 AM CST');
  });

  it('a viewer cannot put a car on hold or change one; the front desk can', () => {
    draw('viewer', () => json(200, {}));
    expect(screen.queryByRole('button', { name: 'Put on hold' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Change the cleaning hold/ })).toBeNull();
  });

  it('changing a hold sends only what changed', async () => {
    const { fetchMock, onChanged, user } = draw('agent', () => json(200, {}));
    await user.click(screen.getByRole('button', { name: /^Change the cleaning hold/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the hold' });
    const ends = within(dialog).getByLabelText(/^Ends/);
    await user.clear(ends);
    await user.type(ends, '2099-01-12T09:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save the hold' }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledWith('The hold is changed.'));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`/api/ops/v1/holds/${laterHold.id}`);
    expect(init.method).toBe('PATCH');
    expect(JSON.parse(init.body as string)).toEqual({
      reason: 'cleaning',
      note: 'Deep clean',
      endsAt: '2099-01-12T15:00:00.000Z',
    });
  });
});
