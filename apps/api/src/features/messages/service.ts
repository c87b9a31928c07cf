import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { listMailbox } from './repository.ts';

/** The built-in mailbox's newest emails (to one address, or to everyone), as the dev pages show them. */
export async function devMailbox(db: Kysely<Database>, to: string | undefined) {
  const rows = await listMailbox(db, { to, limit: 50 });
  return rows.map((r) => ({
    to: r.to_address,
    subject: r.subject,
    body: r.body,
    sent_at: new Date(r.sent_at).toISOString(),
  }));
}
