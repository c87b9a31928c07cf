// The matchers' types (the component project's setup installs them at run time).
import '@testing-library/jest-dom/vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StaffMe } from '@ampere/domain/contract/ops';
import type { KeyAndCar } from '@ampere/domain/contract/ops-car';
import { PERMISSIONS, type StaffAction, type StaffRole } from '@ampere/domain/staff';
import { KeyCarPanel } from './key-car-panel.tsx';

/** The console's key and car panel as a role sees it, the API answered by `answer`. */

const TRIP = '6f0c2a8e-1d2b-4c3d-9e4f-5a6b7c8d9e0f';

const panel = (over: Partial<KeyAndCar> = {}): KeyAndCar => ({
  trip: { tripId: TRIP, reference: 'AMP-7K3Q-9X2B', status: 'On Rent', timezone: 'America/Chicago' },
  key: {
    status: 'active',
    pausedBy: null,
    validFrom: '2099-01-10T15:30:00.000Z',
    validUntil: '2099-01-12T16:00:00.000Z',
    issuedAt: '2099-01-09T15:00:00.000Z',
  },
  car: {
    locked: true,
    odometerMiles: 12_431.5,
    batteryPercent: 82.5,
    latitude: 36.16271,
    longitude: -86.78161,
    milesFromLot: 0.4,
    readAt: '2099-01-10T16:00:00.000Z',
  },
  carMessage: null,
  notes: [],
  ...over,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

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
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <KeyCarPanel tripId={TRIP} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { fetchMock, user: userEvent.setup({ delay: null }) };
}

const posts = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.filter(([, init]) => (init as RequestInit).method === 'POST').map(([url]) => url);

describe('the key and car panel in the console', () => {
  it('shows the key, and the car’s reading with its position as coordinates and its distance from the lot', async () => {
    draw('agent', () => json(200, panel()));
    const region = await screen.findByRole('region', { name: 'Key and car' });
    expect(await within(region).findByText('Active')).toBeInTheDocument();
    expect(region).toHaveTextContent('Opens the car Sat, Jan 10, 9:30 AM CST to Mon, Jan 12, 10:00 AM CST');
    expect(region).toHaveTextContent('82.5%');
    expect(region).toHaveTextContent('36.16271° N, 86.78161° W');
    expect(region).toHaveTextContent('0.4 mi');
    expect(within(region).getByText('Locked')).toBeInTheDocument();
  });

  it('a viewer sees the reading but no key or car buttons', async () => {
    draw('viewer', () => json(200, panel()));
    await screen.findByText('Active');
    for (const name of ['Pause key', 'Revoke key', 'Replace key', 'Lock', 'Unlock'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });

  it('offers only what the trip allows: after the return, Lock but no Unlock and no key actions', async () => {
    draw('agent', () => json(200, panel({ trip: { ...panel().trip, status: 'Returned' }, key: null })));
    expect(await screen.findByText('No live key')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lock' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull();
    expect(screen.queryByRole('button', { name: /key$/ })).toBeNull();
  });

  it('revoke asks first in a dialog; keeping the key sends nothing, confirming sends the revoke', async () => {
    const { fetchMock, user } = draw('agent', (_url, init) =>
      json(200, init.method === 'POST' ? panel({ key: null }) : panel()),
    );
    await user.click(await screen.findByRole('button', { name: 'Revoke key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the key?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep the key' }));
    expect(posts(fetchMock)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Revoke key' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke the key' }));
    expect(await screen.findByText(/The key is revoked/)).toBeInTheDocument();
    expect(posts(fetchMock)).toEqual([`/api/ops/v1/trips/${TRIP}/key/revoke`]);
    expect(await screen.findByText('No live key')).toBeInTheDocument();
  });

  it('a failed unlock shows the server’s words, then the note it opened', async () => {
    const message = 'The car did not unlock: asleep. A support note is open on the trip. Try again in a minute.';
    let failed = false;
    const note = {
      id: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
      source: 'staff' as const,
      title: 'Unlock from the console failed',
      detail: 'asleep',
      createdAt: '2099-01-10T16:05:00.000Z',
      staffName: 'Sam',
      resolvedAt: null,
      resolvedBy: null,
    };
    const { user } = draw('agent', (_url, init) => {
      if (init.method === 'POST') {
        failed = true;
        return json(503, { statusCode: 503, code: 'UNAVAILABLE', message, field: 'command' });
      }
      return json(200, panel(failed ? { notes: [note] } : {}));
    });
    await user.click(await screen.findByRole('button', { name: 'Unlock' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(await screen.findByText('Unlock from the console failed')).toBeInTheDocument();
    expect(screen.getByText('Support notes (1 open)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Close the note: Unlock from the console failed/ })).toBeInTheDocument();
  });
});
