import type { Kysely, Transaction } from 'kysely';
import { renterNoteDedupeKey, unlockNoteTitle } from '@ampere/domain/car-actions';
import type { SupportNote } from '@ampere/domain/contract/ops-car';
import type { Database } from '../../db/schema.ts';
import * as repo from './repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** The most of a provider's words a note keeps. */
const DETAIL_MAX = 500;

/**
 * A failed unlock opens a support note on the trip (decision 096), in its own write so that it
 * stays when the failed call answers with an error. One from the console for every attempt (a
 * person at the desk tried); one from the renter's key page per trip per hour, however many taps.
 * True when a note was opened.
 */
export function openUnlockNote(
  db: Db,
  failure: { reservationId: string; source: 'staff' | 'renter'; staffId?: string; error: string; now: Date },
): Promise<boolean> {
  return repo.insertNote(db, {
    reservation_id: failure.reservationId,
    source: failure.source,
    staff_id: failure.staffId ?? null,
    title: unlockNoteTitle(failure.source),
    detail: failure.error.slice(0, DETAIL_MAX),
    dedupe_key: failure.source === 'renter' ? renterNoteDedupeKey(failure.reservationId, failure.now) : null,
    created_at: failure.now,
  });
}

/** A trip's support notes, as the console shows them: open ones first, each newest first. */
export async function tripNotes(db: Db, reservationId: string): Promise<SupportNote[]> {
  const rows = await repo.notesOf(db, reservationId);
  const ordered = [...rows.filter((n) => !n.resolved_at), ...rows.filter((n) => n.resolved_at)];
  return ordered.map((n) => ({
    id: n.id,
    source: n.source,
    title: n.title,
    detail: n.detail,
    createdAt: n.created_at.toISOString(),
    staffName: n.staff_name,
    resolvedAt: n.resolved_at?.toISOString() ?? null,
    resolvedBy: n.resolved_by_name,
  }));
}

export const resolveNote = repo.resolveNote;
export const noteExists = repo.noteExists;
