import { PHOTO_FORMATS } from './photos.ts';

/**
 * Inspections at check-out and check-in (issue 30 §1, decisions 089 and 090): the guided photo set
 * staff take of a car, the damage marked on a drawing of it, when an inspection is complete, and
 * when a renter may add their own photos to it.
 */

/** The two moments a car is inspected: as it goes out to the renter, and as it comes back. */
export const INSPECTION_STAGES = ['check_out', 'check_in'] as const;
export type InspectionStage = (typeof INSPECTION_STAGES)[number];

export const INSPECTION_STAGE_LABELS: Record<InspectionStage, string> = {
  check_out: 'Check-out inspection',
  check_in: 'Return inspection',
};

/** What a renter reads for each stage: the moment, in their words. */
export const INSPECTION_STAGE_MOMENTS: Record<InspectionStage, string> = {
  check_out: 'at pickup',
  check_in: 'at return',
};

/**
 * The guided views, in the order staff walk round the car: front, the front corners, both sides,
 * the rear, then inside — the dash (battery and odometer) and the interior.
 */
export const INSPECTION_VIEWS = [
  'FRONT',
  'LF_CORNER',
  'RF_CORNER',
  'L_SIDE',
  'R_SIDE',
  'REAR',
  'DASH',
  'INTERIOR',
] as const;
export type InspectionView = (typeof INSPECTION_VIEWS)[number];

export const INSPECTION_VIEW_LABELS: Record<InspectionView, string> = {
  FRONT: 'Front',
  LF_CORNER: 'Front left corner',
  RF_CORNER: 'Front right corner',
  L_SIDE: 'Left side',
  R_SIDE: 'Right side',
  REAR: 'Rear',
  DASH: 'Dash (battery and odometer)',
  INTERIOR: 'Interior',
};

/** What to frame for each view, shown beside its step. */
export const INSPECTION_VIEW_HINTS: Record<InspectionView, string> = {
  FRONT: 'Stand in front of the car and take the whole bumper, bonnet and windscreen.',
  LF_CORNER: 'From the front left, take the corner: bumper, headlight, wing and wheel.',
  RF_CORNER: 'From the front right, take the corner: bumper, headlight, wing and wheel.',
  L_SIDE: 'Take the whole left side, both wheels in the frame.',
  R_SIDE: 'Take the whole right side, both wheels in the frame.',
  REAR: 'Take the whole rear: bumper, tail lights and boot.',
  DASH: 'With the car awake, take the screen so the battery and the odometer can be read.',
  INTERIOR: 'Take the seats and floor from the open door.',
};

/** How bad a damage mark is. */
export const DAMAGE_SEVERITIES = ['minor', 'moderate', 'major'] as const;
export type DamageSeverity = (typeof DAMAGE_SEVERITIES)[number];

export const DAMAGE_SEVERITY_LABELS: Record<DamageSeverity, string> = {
  minor: 'Minor (scratch, scuff)',
  moderate: 'Moderate (dent, chip)',
  major: 'Major (crack, broken part)',
};

/** The longest note a damage mark takes. */
export const DAMAGE_NOTE_MAX = 500;
/** The most close-up photos one damage mark takes. */
export const DAMAGE_CLOSEUPS_MAX = 6;
/** The most photos a renter may add to one inspection. */
export const RENTER_PHOTOS_MAX = 12;

/** A damage mark: a point on the car's top-view drawing (0..1 across and down, front at the top). */
export interface DamagePoint {
  x: number;
  y: number;
}

/**
 * The view nearest a point on the top-view drawing (front at the top, the car's left on the left):
 * the corners first, then whichever edge is nearest. The console offers it as the mark's view;
 * staff may choose another (a mark on the roof belongs to the side it is seen from).
 */
export function viewAtPoint({ x, y }: DamagePoint): InspectionView {
  if (y < 0.22 && x < 0.3) return 'LF_CORNER';
  if (y < 0.22 && x > 0.7) return 'RF_CORNER';
  const edges: [number, InspectionView][] = [
    [y, 'FRONT'],
    [1 - y, 'REAR'],
    // The drawing is narrower than it is long: a side is nearer than it looks in 0..1 units.
    [x * 0.5, 'L_SIDE'],
    [(1 - x) * 0.5, 'R_SIDE'],
  ];
  return edges.reduce((a, b) => (b[0] < a[0] ? b : a))[1];
}

/** Where a mark added without pointing (by keyboard, from a view's name) is put on the drawing. */
export const VIEW_POINTS: Record<InspectionView, DamagePoint> = {
  FRONT: { x: 0.5, y: 0.06 },
  LF_CORNER: { x: 0.15, y: 0.1 },
  RF_CORNER: { x: 0.85, y: 0.1 },
  L_SIDE: { x: 0.1, y: 0.5 },
  R_SIDE: { x: 0.9, y: 0.5 },
  REAR: { x: 0.5, y: 0.94 },
  DASH: { x: 0.5, y: 0.34 },
  INTERIOR: { x: 0.5, y: 0.55 },
};

/** Whether a point lies on the drawing. */
export const isOnDrawing = ({ x, y }: DamagePoint): boolean =>
  Number.isFinite(x) && Number.isFinite(y) && x >= 0 && x <= 1 && y >= 0 && y <= 1;

/**
 * The guided views an inspection still lacks, in walking order. An inspection is complete once
 * staff have photographed all eight; a renter's photo does not stand in for one.
 */
export function missingViews(staffPhotos: readonly { view: string | null }[]): InspectionView[] {
  const taken = new Set(staffPhotos.map((p) => p.view));
  return INSPECTION_VIEWS.filter((v) => !taken.has(v));
}

export const isInspectionComplete = (staffPhotos: readonly { view: string | null }[]): boolean =>
  missingViews(staffPhotos).length === 0;

/** The sentence that refuses completing an inspection with views still to take. */
export function missingViewsMessage(missing: readonly InspectionView[]): string {
  const names = missing.map((v) => INSPECTION_VIEW_LABELS[v].toLowerCase());
  return `Take the ${names.length === 1 ? 'photo' : 'photos'} still missing first: ${names.join(', ')}.`;
}

/**
 * The renter's photo window (decision 090). At pickup: from 30 minutes before the pickup time
 * until 2 hours after it, or after the car was actually picked up if that was later — the time to
 * walk round the car and point out what was already there. At return: from 2 hours before the car
 * comes back (the return time, or the moment the trip was ended if sooner) until 1 hour after.
 */
export const RENTER_WINDOW = {
  check_out: { beforeMinutes: 30, afterMinutes: 120 },
  check_in: { beforeMinutes: 120, afterMinutes: 60 },
} as const satisfies Record<InspectionStage, { beforeMinutes: number; afterMinutes: number }>;

/** A trip as the renter's photo window reads it. */
export interface WindowTrip {
  status: string;
  pickupAt: Date;
  returnAt: Date;
  /** When the car was actually picked up (the ride), if it was. */
  pickedUpAt?: Date | null;
  /** When the trip was ended (by the renter or staff), if it was. */
  returnedAt?: Date | null;
}

export interface PhotoWindow {
  stage: InspectionStage;
  opensAt: Date;
  closesAt: Date;
}

const MINUTE = 60_000;
/** The trips a renter may photograph: paid, and not cancelled. */
const PHOTO_STATUSES = new Set(['Pending', 'On Rent', 'Returned']);

/** The window of one stage for a trip, or null when the trip takes no renter photos (unpaid or cancelled). */
export function renterPhotoWindow(stage: InspectionStage, trip: WindowTrip): PhotoWindow | null {
  if (!PHOTO_STATUSES.has(trip.status)) return null;
  const w = RENTER_WINDOW[stage];
  if (stage === 'check_out') {
    const start = trip.pickupAt.getTime();
    const end = Math.max(start, trip.pickedUpAt?.getTime() ?? start);
    return {
      stage,
      opensAt: new Date(start - w.beforeMinutes * MINUTE),
      closesAt: new Date(end + w.afterMinutes * MINUTE),
    };
  }
  const back = Math.min(trip.returnAt.getTime(), trip.returnedAt?.getTime() ?? Infinity);
  return {
    stage,
    opensAt: new Date(back - w.beforeMinutes * MINUTE),
    closesAt: new Date(back + w.afterMinutes * MINUTE),
  };
}

/**
 * The stage a renter may add photos to now, or null. Should the two windows overlap (a trip ended
 * soon after pickup), the return wins once the trip has ended or its return window has opened.
 */
export function openRenterWindow(trip: WindowTrip, now: Date): PhotoWindow | null {
  const open = INSPECTION_STAGES.map((s) => renterPhotoWindow(s, trip)).filter(
    (w): w is PhotoWindow => w !== null && w.opensAt <= now && now < w.closesAt,
  );
  return open.at(-1) ?? null;
}

/** The next window still to open for a trip, for telling the renter when they can add photos. */
export function nextRenterWindow(trip: WindowTrip, now: Date): PhotoWindow | null {
  return (
    INSPECTION_STAGES.map((s) => renterPhotoWindow(s, trip)).find(
      (w): w is PhotoWindow => w !== null && now < w.opensAt,
    ) ?? null
  );
}

/** Where an inspection photo is served: its inspection, its own id and a width. */
export function inspectionPhotoPath(inspectionId: string, photoId: string, width: number): string {
  return `/media/inspections/${inspectionId}/${photoId}-${width}.webp`;
}

/** A telematics reading in words, or why there is none. */
export function readingWords(reading: { batteryLevel: number | null; odometerMiles: number | null }): string {
  if (reading.batteryLevel === null || reading.odometerMiles === null) return 'No reading: the car did not answer';
  return `Battery ${Math.round(reading.batteryLevel * 100)}% · ${Math.round(reading.odometerMiles).toLocaleString('en-US')} mi`;
}

/** A trip's inspection as its timeline tells it: started, the renter's photos, completed. */
export function inspectionTimeline(i: {
  stage: InspectionStage;
  started_at: Date;
  completed_at: Date | null;
  completed_by_name: string | null;
  damage: string | number | null;
  renter_last_at: Date | string | null;
  renter_photos: string | number | null;
}): { at: Date; title: string; detail: string | null }[] {
  const label = INSPECTION_STAGE_LABELS[i.stage];
  const marks = Number(i.damage ?? 0);
  const renter = Number(i.renter_photos ?? 0);
  const events: { at: Date; title: string; detail: string | null }[] = [
    { at: i.started_at, title: `${label} started`, detail: null },
  ];
  if (renter > 0 && i.renter_last_at)
    events.push({
      at: new Date(i.renter_last_at),
      title: `The renter added ${renter} ${renter === 1 ? 'photo' : 'photos'} ${INSPECTION_STAGE_MOMENTS[i.stage]}`,
      detail: null,
    });
  if (i.completed_at)
    events.push({
      at: i.completed_at,
      title: `${label} completed`,
      detail: [
        i.completed_by_name,
        marks === 0 ? 'no damage marked' : `${marks} damage ${marks === 1 ? 'mark' : 'marks'}`,
      ]
        .filter(Boolean)
        .join(', '),
    });
  return events;
}

/** What a photo input offers: the formats the API takes (a phone's camera gives JPEG). */
export const PHOTO_FORMATS_ACCEPT = PHOTO_FORMATS.map((f) => `image/${f}`).join(',');
