import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INSPECTION_VIEWS,
  INSPECTION_VIEW_LABELS,
  VIEW_POINTS,
  inspectionTimeline,
  isInspectionComplete,
  isOnDrawing,
  missingViews,
  missingViewsMessage,
  nextRenterWindow,
  openRenterWindow,
  readingWords,
  renterPhotoWindow,
  viewAtPoint,
} from './inspections.ts';

const at = (iso: string) => new Date(iso);
const trip = {
  status: 'Pending',
  pickupAt: at('2026-03-10T15:00:00Z'),
  returnAt: at('2026-03-13T15:00:00Z'),
};

describe('the guided photo set (issue 30 §1: front, rear, both sides, both front corners, the dash and the interior)', () => {
  it('has the eight views, each once, with a label', () => {
    expect(INSPECTION_VIEWS).toHaveLength(8);
    expect(new Set(INSPECTION_VIEWS).size).toBe(8);
    for (const v of INSPECTION_VIEWS) expect(INSPECTION_VIEW_LABELS[v]).toBeTruthy();
    expect(INSPECTION_VIEW_LABELS.DASH).toContain('battery and odometer');
  });

  it('is complete exactly when staff have photographed all eight views, whatever else was taken', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<string | null>(...INSPECTION_VIEWS, null)), (views) => {
        const photos = views.map((view) => ({ view }));
        const missing = missingViews(photos);
        expect(isInspectionComplete(photos)).toBe(INSPECTION_VIEWS.every((v) => views.includes(v)));
        expect(missing.every((v) => !views.includes(v))).toBe(true);
        // In walking order.
        expect(missing).toEqual(INSPECTION_VIEWS.filter((v) => missing.includes(v)));
      }),
    );
  });

  it('names what is missing when an inspection cannot be completed yet', () => {
    expect(missingViewsMessage(['REAR'])).toBe('Take the photo still missing first: rear.');
    expect(missingViewsMessage(['L_SIDE', 'DASH'])).toBe(
      'Take the photos still missing first: left side, dash (battery and odometer).',
    );
  });
});

describe('damage marked on the drawing (front at the top, the car’s left on the left)', () => {
  it('suggests the view a point is nearest', () => {
    expect(viewAtPoint({ x: 0.5, y: 0.02 })).toBe('FRONT');
    expect(viewAtPoint({ x: 0.05, y: 0.05 })).toBe('LF_CORNER');
    expect(viewAtPoint({ x: 0.95, y: 0.1 })).toBe('RF_CORNER');
    expect(viewAtPoint({ x: 0.02, y: 0.5 })).toBe('L_SIDE');
    expect(viewAtPoint({ x: 0.98, y: 0.6 })).toBe('R_SIDE');
    expect(viewAtPoint({ x: 0.5, y: 0.97 })).toBe('REAR');
  });

  it('always suggests one of the eight views for a point on the drawing', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (x, y) => {
        expect(isOnDrawing({ x, y })).toBe(true);
        expect(INSPECTION_VIEWS).toContain(viewAtPoint({ x, y }));
      }),
    );
  });

  it('refuses points off the drawing, and puts each view’s keyboard mark on it', () => {
    expect(isOnDrawing({ x: -0.01, y: 0.5 })).toBe(false);
    expect(isOnDrawing({ x: 0.5, y: 1.2 })).toBe(false);
    expect(isOnDrawing({ x: Number.NaN, y: 0.5 })).toBe(false);
    for (const v of INSPECTION_VIEWS) expect(isOnDrawing(VIEW_POINTS[v])).toBe(true);
  });
});

describe('the renter’s photo window (decision 090)', () => {
  it('at pickup opens 30 minutes before and closes 2 hours after the pickup time', () => {
    expect(renterPhotoWindow('check_out', trip)).toEqual({
      stage: 'check_out',
      opensAt: at('2026-03-10T14:30:00Z'),
      closesAt: at('2026-03-10T17:00:00Z'),
    });
  });

  it('at pickup runs 2 hours from the actual pickup when the car was picked up late', () => {
    const late = { ...trip, pickedUpAt: at('2026-03-10T18:00:00Z') };
    expect(renterPhotoWindow('check_out', late)?.closesAt).toEqual(at('2026-03-10T20:00:00Z'));
  });

  it('at return opens 2 hours before and closes 1 hour after the return, or the early end of the trip', () => {
    expect(renterPhotoWindow('check_in', trip)).toMatchObject({
      opensAt: at('2026-03-13T13:00:00Z'),
      closesAt: at('2026-03-13T16:00:00Z'),
    });
    const early = { ...trip, status: 'Returned', returnedAt: at('2026-03-12T09:00:00Z') };
    expect(renterPhotoWindow('check_in', early)).toMatchObject({
      opensAt: at('2026-03-12T07:00:00Z'),
      closesAt: at('2026-03-12T10:00:00Z'),
    });
  });

  it('is shut for a trip not paid yet or cancelled', () => {
    for (const status of ['Started', 'Canceled'])
      for (const stage of ['check_out', 'check_in'] as const)
        expect(renterPhotoWindow(stage, { ...trip, status })).toBeNull();
  });

  it('is open for one stage at a time, and tells what opens next', () => {
    expect(openRenterWindow(trip, at('2026-03-10T14:00:00Z'))).toBeNull();
    expect(nextRenterWindow(trip, at('2026-03-10T14:00:00Z'))?.stage).toBe('check_out');
    expect(openRenterWindow(trip, at('2026-03-10T15:10:00Z'))?.stage).toBe('check_out');
    expect(openRenterWindow(trip, at('2026-03-11T12:00:00Z'))).toBeNull();
    expect(nextRenterWindow(trip, at('2026-03-11T12:00:00Z'))?.stage).toBe('check_in');
    expect(openRenterWindow(trip, at('2026-03-13T15:30:00Z'))?.stage).toBe('check_in');
    expect(openRenterWindow(trip, at('2026-03-13T16:00:00Z'))).toBeNull();
    expect(nextRenterWindow(trip, at('2026-03-13T16:00:00Z'))).toBeNull();
  });

  it('is open exactly when now falls inside the stage it names, for any trip and moment', () => {
    const hour = 3_600_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 24, max: 24 * 28 }),
        fc.integer({ min: -48, max: 24 * 30 }),
        fc.option(fc.integer({ min: 1, max: 24 * 28 })),
        (lengthHours, nowHours, endedAfter) => {
          const base = trip.pickupAt.getTime();
          const t = {
            status: endedAfter === null ? 'On Rent' : 'Returned',
            pickupAt: trip.pickupAt,
            returnAt: new Date(base + lengthHours * hour),
            returnedAt: endedAfter === null ? null : new Date(base + Math.min(endedAfter, lengthHours) * hour),
          };
          const now = new Date(base + nowHours * hour);
          const open = openRenterWindow(t, now);
          if (open) expect(open.opensAt <= now && now < open.closesAt).toBe(true);
          else
            for (const s of ['check_out', 'check_in'] as const) {
              const w = renterPhotoWindow(s, t)!;
              expect(w.opensAt <= now && now < w.closesAt).toBe(false);
            }
        },
      ),
    );
  });
});

describe('a photo’s telematics reading', () => {
  it('reads battery and odometer, or says the car did not answer', () => {
    expect(readingWords({ batteryLevel: 0.8, odometerMiles: 12345.4 })).toBe('Battery 80% · 12,345 mi');
    expect(readingWords({ batteryLevel: null, odometerMiles: null })).toBe('No reading: the car did not answer');
  });
});

describe('an inspection on the trip’s timeline', () => {
  it('tells when it started, what the renter added and when it was completed', () => {
    const events = inspectionTimeline({
      stage: 'check_out',
      started_at: at('2026-03-10T14:50:00Z'),
      completed_at: at('2026-03-10T15:05:00Z'),
      completed_by_name: 'Ana Desk',
      damage: '2',
      renter_last_at: at('2026-03-10T15:20:00Z'),
      renter_photos: '3',
    });
    expect(events.map((e) => e.title)).toEqual([
      'Check-out inspection started',
      'The renter added 3 photos at pickup',
      'Check-out inspection completed',
    ]);
    expect(events[2]!.detail).toBe('Ana Desk, 2 damage marks');
  });
});
