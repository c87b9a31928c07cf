import type { ReservationStatus } from './constants.ts';
import type { KeyAction, KeyRefusal, KeyStatus, Outstanding } from './verification.ts';
import { KEY_REFUSAL_MESSAGES, isKeyTripStatus } from './verification.ts';

/**
 * The key and the car from the console (issue 30 §5, decision 096): which of a trip's key actions
 * and car commands staff may take in which trip state, what a support note is, and what the
 * renter's key page says of a key the desk paused. The API and the console both decide with these.
 */

/** What staff can do to a trip's key, in the console's words; each is one of spec 3's key actions. */
export const STAFF_KEY_VERBS = ['pause', 'resume', 'revoke', 'replace'] as const;
export type StaffKeyVerb = (typeof STAFF_KEY_VERBS)[number];

export const STAFF_KEY_ACTION: Record<StaffKeyVerb, KeyAction> = {
  pause: 'PAUSE_KEY',
  resume: 'UNPAUSE_KEY',
  revoke: 'REVOKE_KEY',
  replace: 'CREATE_NEW_KEY',
};

export const CAR_COMMANDS = ['lock', 'unlock'] as const;
export type CarCommand = (typeof CAR_COMMANDS)[number];

/** Who paused a key: the renter may resume only their own pause; a pause by the desk is lifted by the desk. */
export const KEY_PAUSERS = ['renter', 'staff'] as const;
export type KeyPauser = (typeof KEY_PAUSERS)[number];

export interface LiveKey {
  status: Exclude<KeyStatus, 'revoked'>;
  pausedBy: KeyPauser | null;
}

/** A key row as the rules see it: null once revoked. */
export function liveKeyOf(row: { status: KeyStatus; paused_by: KeyPauser | null } | null | undefined): LiveKey | null {
  if (!row || row.status === 'revoked') return null;
  return { status: row.status, pausedBy: row.status === 'paused' ? row.paused_by : null };
}

const over = (status: ReservationStatus) =>
  status === 'Started'
    ? 'This trip is not paid yet, so it has no key.'
    : `This trip is ${status === 'Canceled' ? 'cancelled' : 'over'}: its key has ended.`;

/**
 * Rule: why staff may not take a key action now, or null when they may. Every key action needs an
 * upcoming or running trip (Pending or On Rent): a key ends with the trip. Pause needs an active
 * key, resume a paused one, revoke a live one; replace revokes the live key if there is one and
 * issues another (whether the trip may have a key at all is the key rules' to say).
 */
export function staffKeyRefusal(verb: StaffKeyVerb, trip: { status: ReservationStatus }, key: LiveKey | null) {
  if (!isKeyTripStatus(trip.status)) return over(trip.status);
  switch (verb) {
    case 'pause':
      if (!key) return 'This trip has no live key to pause.';
      return key.status === 'paused' ? 'The key is already paused.' : null;
    case 'resume':
      if (!key) return 'This trip has no live key to resume.';
      return key.status === 'active' ? 'The key is not paused.' : null;
    case 'revoke':
      return key ? null : 'This trip has no live key to revoke.';
    case 'replace':
      return null;
  }
}

/**
 * Rule: why staff may not send the car a command from this trip now, or null when they may. An
 * upcoming or running trip's car may be locked or unlocked (helping a renter at the car); after
 * the return it may still be locked — a car left open is the risk — but not unlocked, since the
 * car may already be with the next renter. A cancelled or unpaid trip never had the car.
 */
export function staffCarCommandRefusal(command: CarCommand, trip: { status: ReservationStatus }): string | null {
  if (isKeyTripStatus(trip.status)) return null;
  if (trip.status === 'Returned')
    return command === 'lock' ? null : 'This trip is over: unlock the car from the trip it is on now.';
  return trip.status === 'Started'
    ? 'This trip is not paid yet: the car is not the renter’s to open.'
    : 'This trip was cancelled: the car is not part of it.';
}

/** Why a replacement key cannot be issued yet, in the desk's words (the renter's own steps come first). */
export const STAFF_OUTSTANDING_MESSAGES: Record<Outstanding, string> = {
  payment: 'No new key: the trip is not paid yet.',
  license: 'No new key: the renter’s driver’s license is not verified.',
  insurance: 'No new key: the renter’s insurance is not connected.',
  deposit: 'No new key: the security deposit is not held.',
};

/** Rule: whether the renter may resume or replace their own key: not while the desk holds it paused. */
export function renterMayLiftPause(key: LiveKey | null): boolean {
  return !(key?.status === 'paused' && key.pausedBy === 'staff');
}

export const STAFF_PAUSE_MESSAGE = 'This key is paused by the rental desk. Call the location to have it resumed.';

/** What the key page says for a refusal: a pause by the desk says who paused it and what to do. */
export function keyRefusalMessage(refusal: KeyRefusal, pausedBy: KeyPauser | null): string {
  if (refusal === 'paused' && pausedBy === 'staff') return STAFF_PAUSE_MESSAGE;
  return KEY_REFUSAL_MESSAGES[refusal];
}

// ---- support notes ----

/** What opened a support note: an unlock that failed from the console, or from the renter's key page. */
export const SUPPORT_NOTE_SOURCES = ['staff', 'renter'] as const;
export type SupportNoteSource = (typeof SUPPORT_NOTE_SOURCES)[number];

/** A renter's failed unlocks open at most one note per trip per this many minutes (one tap after another is one problem). */
export const RENTER_NOTE_WINDOW_MINUTES = 60;

/**
 * The key that keeps a renter's failed unlocks to one note per trip per window: the trip and the
 * window's start. Staff failures are not merged: each is someone at the desk who tried.
 */
export function renterNoteDedupeKey(reservationId: string, now: Date): string {
  const windowMs = RENTER_NOTE_WINDOW_MINUTES * 60_000;
  return `renter-unlock:${reservationId}:${Math.floor(now.getTime() / windowMs) * windowMs}`;
}

/** The title of a support note about a failed unlock, by who tried. */
export function unlockNoteTitle(source: SupportNoteSource): string {
  return source === 'staff' ? 'Unlock from the console failed' : 'The renter’s key could not unlock the car';
}
