import type { Kysely, Transaction } from 'kysely';
import type { SupportNoteSource } from '@ampere/domain/car-actions';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Opens a note; a note with the same dedupe key is not opened twice. True when it is new. */
export async function insertNote(
  db: Db,
  note: {
    reservation_id: string;
    source: SupportNoteSource;
    staff_id: string | null;
    title: string;
    detail: string;
    dedupe_key: string | null;
    created_at: Date;
  },
): Promise<boolean> {
  const row = await db
    .insertInto('support_notes')
    .values({ ...note, resolved_at: null, resolved_by: null })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A trip's notes, newest first, with who opened and who closed them. */
export function notesOf(db: Db, reservationId: string) {
  return db
    .selectFrom('support_notes as n')
    .leftJoin('staff as s', 's.id', 'n.staff_id')
    .leftJoin('staff as c', 'c.id', 'n.resolved_by')
    .select([
      'n.id',
      'n.source',
      'n.title',
      'n.detail',
      'n.created_at',
      'n.resolved_at',
      's.name as staff_name',
      'c.name as resolved_by_name',
    ])
    .where('n.reservation_id', '=', reservationId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id')
    .execute();
}

/** Closes an open note of the trip; undefined when there is no such note, or it was closed already. */
export function resolveNote(
  trx: Transaction<Database>,
  reservationId: string,
  noteId: string,
  staffId: string,
  now: Date,
) {
  return trx
    .updateTable('support_notes')
    .set({ resolved_at: now, resolved_by: staffId })
    .where('id', '=', noteId)
    .where('reservation_id', '=', reservationId)
    .where('resolved_at', 'is', null)
    .returning(['id', 'title'])
    .executeTakeFirst();
}

/** Whether the trip has this note at all (open or closed). */
export async function noteExists(db: Db, reservationId: string, noteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('support_notes')
    .select('id')
    .where('id', '=', noteId)
    .where('reservation_id', '=', reservationId)
    .executeTakeFirst();
  return row !== undefined;
}
