import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Busy,
  TURNAROUND_MS,
  availabilityByDate,
  blockedUntil,
  clashes,
  instantClashes,
  isDayTaken,
  isPeriodFree,
  takenDays,
  timeClashes,
  touchedDays,
} from './availability.ts';
import { TIME_STEP_MINUTES, TURNAROUND_MINUTES } from './constants.ts';
import { toInstant, toLocal } from './time.ts';

const CHI = 'America/Chicago';
const STEP = TIME_STEP_MINUTES * 60_000;
const TURN_STEPS = TURNAROUND_MINUTES / TIME_STEP_MINUTES;
/** Midnight in Chicago on 10 January 2027 (CST, UTC-6). */
const ORIGIN = Date.parse('2027-01-10T06:00:00Z');
const at = (step: number) => ORIGIN + step * STEP;
const hold = (pickup: string, ret: string): Busy => ({
  from: Date.parse(pickup),
  until: blockedUntil(new Date(ret)).getTime(),
});

describe('one availability rule (decision 015)', () => {
  it('rule: a booking holds the car until its return plus the 60-minute turnaround', () => {
    expect(TURNAROUND_MS).toBe(60 * 60_000);
    expect(blockedUntil(new Date('2027-01-14T16:00:00Z')).toISOString()).toBe('2027-01-14T17:00:00.000Z');
  });

  it('rule: a period clashes with a hold when it, plus its own turnaround, overlaps it (half-open)', () => {
    const busy = [hold('2027-01-11T16:00:00Z', '2027-01-14T16:00:00Z')];
    // Picking up one turnaround after the return is free; a minute sooner is not.
    expect(isPeriodFree(busy, Date.parse('2027-01-14T17:00:00Z'), Date.parse('2027-01-16T16:00:00Z'))).toBe(true);
    expect(isPeriodFree(busy, Date.parse('2027-01-14T16:59:00Z'), Date.parse('2027-01-16T16:00:00Z'))).toBe(false);
    // Returning one turnaround before the pickup is free; a minute later is not.
    expect(isPeriodFree(busy, Date.parse('2027-01-09T16:00:00Z'), Date.parse('2027-01-11T15:00:00Z'))).toBe(true);
    expect(isPeriodFree(busy, Date.parse('2027-01-09T16:00:00Z'), Date.parse('2027-01-11T15:01:00Z'))).toBe(false);
    expect(isPeriodFree([], 0, 1)).toBe(true);
  });

  it('rule: the day a booking returns on is partly taken: pickable, with the times before the turnaround ends disabled', () => {
    // 10:00 CST on the 14th is 16:00Z; the car is ready again at 11:00.
    const busy = [hold('2027-01-11T16:00:00Z', '2027-01-14T16:00:00Z')];
    expect(timeClashes(busy, { date: '2027-01-14', time: '10:45' }, CHI, { kind: 'pickup' })).toBe(true);
    expect(timeClashes(busy, { date: '2027-01-14', time: '11:00' }, CHI, { kind: 'pickup' })).toBe(false);
    expect(isDayTaken(busy, '2027-01-14', CHI, { kind: 'pickup' })).toBe(false);
    expect(isDayTaken(busy, '2027-01-12', CHI, { kind: 'pickup' })).toBe(true);
    // The pickup day keeps returns up to 09:00 (one turnaround before 10:00).
    expect(timeClashes(busy, { date: '2027-01-11', time: '09:00' }, CHI, { kind: 'return', pickupMs: null })).toBe(
      false,
    );
    expect(timeClashes(busy, { date: '2027-01-11', time: '09:15' }, CHI, { kind: 'return', pickupMs: null })).toBe(
      true,
    );
    const map = availabilityByDate(busy, CHI, '2027-01-09', 10);
    expect([
      map['2027-01-10'],
      map['2027-01-11'],
      map['2027-01-12'],
      map['2027-01-13'],
      map['2027-01-14'],
      map['2027-01-15'],
    ]).toEqual([true, true, false, false, true, true]);
  });

  it('rule: from a chosen pickup, return times past the next booking (less its turnaround) clash', () => {
    const busy = [hold('2027-01-20T16:00:00Z', '2027-01-22T16:00:00Z')];
    const pickupMs = toInstant({ date: '2027-01-15', time: '10:00' }, CHI).getTime();
    expect(timeClashes(busy, { date: '2027-01-20', time: '09:00' }, CHI, { kind: 'return', pickupMs })).toBe(false);
    expect(timeClashes(busy, { date: '2027-01-20', time: '09:15' }, CHI, { kind: 'return', pickupMs })).toBe(true);
    // Past the booking, every return day is taken: the trip would run across it.
    expect(
      takenDays(busy, CHI, ['2027-01-19', '2027-01-20', '2027-01-23', '2027-01-25'], { kind: 'return', pickupMs }),
    ).toEqual(new Set(['2027-01-23', '2027-01-25']));
  });

  /**
   * Bookings a database would accept, modelled independently of the rule: each occupies the
   * 15-minute slots from its pickup to its return plus the turnaround, and is refused when any of
   * them is already occupied (the exclusion constraint on [pickup_at, blocked_until)).
   */
  const accepted = (tries: { start: number; length: number }[]) => {
    const occupied = new Set<number>();
    const busy: Busy[] = [];
    for (const t of tries) {
      const slots = Array.from({ length: t.length + TURN_STEPS }, (_, i) => t.start + i);
      if (slots.some((s) => occupied.has(s))) continue;
      for (const s of slots) occupied.add(s);
      busy.push({ from: at(t.start), until: at(t.start + t.length + TURN_STEPS) });
    }
    return { occupied, busy };
  };
  const bookings = fc.array(
    fc.record({ start: fc.integer({ min: 0, max: 30 * 96 }), length: fc.integer({ min: 1, max: 8 * 96 }) }),
    { maxLength: 12 },
  );
  const period = fc.record({
    start: fc.integer({ min: -96, max: 32 * 96 }),
    length: fc.integer({ min: 1, max: 10 * 96 }),
  });

  it('property: a period is free by the rule exactly when the database model would accept it as a booking', () => {
    fc.assert(
      fc.property(bookings, period, (tries, p) => {
        const { occupied, busy } = accepted(tries);
        const dbAccepts = Array.from({ length: p.length + TURN_STEPS }, (_, i) => p.start + i).every(
          (s) => !occupied.has(s),
        );
        expect(isPeriodFree(busy, at(p.start), at(p.start + p.length))).toBe(dbAccepts);
        // The search index's test, hold by hold, is the same predicate.
        expect(busy.some((b) => clashes(b.from, b.until, at(p.start), at(p.start + p.length)))).toBe(!dbAccepts);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a free period is offered by the page: its pickup and return times are enabled, and neither day is blocked', () => {
    fc.assert(
      fc.property(bookings, period, (tries, p) => {
        const { busy } = accepted(tries);
        const pickupMs = at(p.start);
        const returnMs = at(p.start + p.length);
        const free = isPeriodFree(busy, pickupMs, returnMs);
        // Book is enabled exactly when the period is free, and the return list says the same from a usable pickup.
        if (!instantClashes(busy, pickupMs, { kind: 'pickup' }))
          expect(instantClashes(busy, returnMs, { kind: 'return', pickupMs })).toBe(!free);
        if (!free) return;
        expect(instantClashes(busy, pickupMs, { kind: 'pickup' })).toBe(false);
        const pickupDate = toLocal(new Date(pickupMs), CHI).date;
        const returnDate = toLocal(new Date(returnMs), CHI).date;
        expect(isDayTaken(busy, pickupDate, CHI, { kind: 'pickup' })).toBe(false);
        expect(isDayTaken(busy, returnDate, CHI, { kind: 'return', pickupMs })).toBe(false);
        const map = availabilityByDate(busy, CHI, '2027-01-08', 50);
        expect([map[pickupDate], map[returnDate]]).toEqual([true, true]);
      }),
      { numRuns: 300 },
    );
  });

  it('property: only days near a hold can be taken, so the day map needs to look at no others', () => {
    fc.assert(
      fc.property(bookings, fc.integer({ min: -2, max: 40 }), (tries, offset) => {
        const { busy } = accepted(tries);
        const day = toLocal(new Date(ORIGIN + offset * 86_400_000 + 12 * 3_600_000), CHI).date;
        if (touchedDays(busy, CHI).includes(day)) return;
        expect(isDayTaken(busy, day, CHI, { kind: 'pickup' })).toBe(false);
        expect(isDayTaken(busy, day, CHI, { kind: 'return', pickupMs: null })).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
