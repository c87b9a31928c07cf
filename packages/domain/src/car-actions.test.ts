import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAR_COMMANDS,
  KEY_PAUSERS,
  type LiveKey,
  RENTER_NOTE_WINDOW_MINUTES,
  STAFF_KEY_ACTION,
  STAFF_KEY_VERBS,
  STAFF_PAUSE_MESSAGE,
  keyRefusalMessage,
  liveKeyOf,
  renterMayLiftPause,
  renterNoteDedupeKey,
  staffCarCommandRefusal,
  staffKeyRefusal,
} from './car-actions.ts';
import { RESERVATION_STATUSES } from './constants.ts';
import { KEY_ACTIONS, KEY_REFUSAL_MESSAGES } from './verification.ts';

const active: LiveKey = { status: 'active', pausedBy: null };
const pausedByDesk: LiveKey = { status: 'paused', pausedBy: 'staff' };
const pausedByRenter: LiveKey = { status: 'paused', pausedBy: 'renter' };
const liveKeys = fc.constantFrom<LiveKey | null>(null, active, pausedByDesk, pausedByRenter);

describe('staff key actions (decision 096)', () => {
  it('maps each console verb to one of spec 3’s key actions, all four covered', () => {
    expect(Object.values(STAFF_KEY_ACTION).sort()).toEqual([...KEY_ACTIONS].sort());
  });

  it('rule: no key action on a trip that is unpaid, over or cancelled, whatever its key', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STAFF_KEY_VERBS),
        fc.constantFrom('Started', 'Returned', 'Canceled' as const),
        liveKeys,
        (verb, status, key) => {
          expect(staffKeyRefusal(verb, { status }, key)).toMatch(/not paid|over|cancelled/);
        },
      ),
    );
  });

  it('rule: on an upcoming or running trip, pause needs an active key, resume a paused one, revoke a live one', () => {
    for (const status of ['Pending', 'On Rent'] as const) {
      expect(staffKeyRefusal('pause', { status }, active)).toBeNull();
      expect(staffKeyRefusal('pause', { status }, pausedByRenter)).toBe('The key is already paused.');
      expect(staffKeyRefusal('pause', { status }, null)).toMatch(/no live key/);
      expect(staffKeyRefusal('resume', { status }, pausedByDesk)).toBeNull();
      expect(staffKeyRefusal('resume', { status }, pausedByRenter)).toBeNull();
      expect(staffKeyRefusal('resume', { status }, active)).toBe('The key is not paused.');
      expect(staffKeyRefusal('revoke', { status }, pausedByDesk)).toBeNull();
      expect(staffKeyRefusal('revoke', { status }, null)).toMatch(/no live key/);
    }
  });

  it('rule: replace is allowed on an upcoming or running trip with or without a live key', () => {
    fc.assert(
      fc.property(fc.constantFrom('Pending', 'On Rent' as const), liveKeys, (status, key) => {
        expect(staffKeyRefusal('replace', { status }, key)).toBeNull();
      }),
    );
  });
});

describe('staff car commands (decision 096)', () => {
  it('rule: lock and unlock while the trip is upcoming or running', () => {
    for (const command of CAR_COMMANDS)
      for (const status of ['Pending', 'On Rent'] as const)
        expect(staffCarCommandRefusal(command, { status })).toBeNull();
  });

  it('rule: after the return the car may be locked but not unlocked; an unpaid or cancelled trip never had it', () => {
    expect(staffCarCommandRefusal('lock', { status: 'Returned' })).toBeNull();
    expect(staffCarCommandRefusal('unlock', { status: 'Returned' })).toMatch(/over/);
    for (const command of CAR_COMMANDS) {
      expect(staffCarCommandRefusal(command, { status: 'Started' })).toMatch(/not paid/);
      expect(staffCarCommandRefusal(command, { status: 'Canceled' })).toMatch(/cancelled/);
    }
  });

  it('every trip status and command has an answer (a message or null), never a throw', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RESERVATION_STATUSES), fc.constantFrom(...CAR_COMMANDS), (status, command) => {
        const r = staffCarCommandRefusal(command, { status });
        expect(r === null || r.length > 10).toBe(true);
      }),
    );
  });
});

describe('a pause by the desk', () => {
  it('rule: the renter cannot lift a pause the desk made; their own pause, or a key not paused, they can', () => {
    expect(renterMayLiftPause(pausedByDesk)).toBe(false);
    expect(renterMayLiftPause(pausedByRenter)).toBe(true);
    expect(renterMayLiftPause(active)).toBe(true);
    expect(renterMayLiftPause(null)).toBe(true);
  });

  it('the key page says who paused the key; other refusals keep their words', () => {
    expect(keyRefusalMessage('paused', 'staff')).toBe(STAFF_PAUSE_MESSAGE);
    expect(keyRefusalMessage('paused', 'renter')).toBe(KEY_REFUSAL_MESSAGES.paused);
    for (const by of [...KEY_PAUSERS, null])
      expect(keyRefusalMessage('revoked', by)).toBe(KEY_REFUSAL_MESSAGES.revoked);
  });

  it('a row reads as a live key only until it is revoked; who paused it counts only while paused', () => {
    expect(liveKeyOf({ status: 'revoked', paused_by: null })).toBeNull();
    expect(liveKeyOf(undefined)).toBeNull();
    expect(liveKeyOf({ status: 'active', paused_by: 'staff' })).toEqual(active);
    expect(liveKeyOf({ status: 'paused', paused_by: 'staff' })).toEqual(pausedByDesk);
  });
});

describe('support notes from a renter’s failed unlocks', () => {
  const hour = RENTER_NOTE_WINDOW_MINUTES * 60_000;
  it('rule: one note per trip per hour — taps within the same hour share a key, the next hour opens another', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: hour - 1 }), (h, offset) => {
        const start = new Date(Date.UTC(2026, 0, 1) + h * hour);
        const key = renterNoteDedupeKey('trip-1', start);
        expect(renterNoteDedupeKey('trip-1', new Date(start.getTime() + offset))).toBe(key);
        expect(renterNoteDedupeKey('trip-1', new Date(start.getTime() + hour))).not.toBe(key);
        expect(renterNoteDedupeKey('trip-2', start)).not.toBe(key);
      }),
    );
  });
});
