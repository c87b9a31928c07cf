import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EndTripPreview } from '@ampere/domain/contract/end-trip';
import { fakeApi, ok } from '../../../test/fake-api.ts';
import { renderWidget } from '../../../test/render.tsx';
import { EndTripNumbers } from './end-trip-preview.tsx';

const preview = (car: Partial<NonNullable<EndTripPreview['car']>>): EndTripPreview => ({
  as_of: '2031-03-13T14:50:00.000Z',
  return_at: '2031-03-13T15:00:00.000Z',
  timezone: 'America/Chicago',
  minutes_late: 0,
  grace_minutes: 30,
  car: {
    battery_level: 0.06,
    charging_minimum: 0.1,
    low_at_pickup: false,
    miles_driven: 40,
    included_miles: 600,
    ...car,
  },
  car_message: null,
  fees: [],
  total: 0,
  deposit: { held: 20_000, kept: 0, released: 20_000 },
  due: 0,
  waived: 0,
});

async function show(p: EndTripPreview) {
  const api = fakeApi();
  api.on('GET /api/v1/reservations/AMP-LOW/end/preview', () => ok(p));
  await renderWidget(<EndTripNumbers platformId="AMP-LOW" />);
  return screen.findByRole('region', { name: 'What the car reports now' });
}

describe('End Trip: the least battery to bring the car back with', () => {
  it('is the charging minimum for a car that went out above it', async () => {
    const now = await show(preview({ battery_level: 0.42 }));
    expect(now).toHaveTextContent('Battery42% (at least 10%)');
  });

  it('is the charge at pickup, and says so, for a car handed over below the minimum', async () => {
    const now = await show(preview({ battery_level: 0.06, charging_minimum: 0.06, low_at_pickup: true }));
    expect(now).toHaveTextContent('Battery6% (at least 6%, the charge it had at pickup)');
    expect(screen.getByText('No fees: the car is back as booked.')).toBeInTheDocument();
  });
});
