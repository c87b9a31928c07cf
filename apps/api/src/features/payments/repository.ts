import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** What the gateway needs to know about a renter to make their customer. */
export function findCustomerOwner(db: Db, userId: string) {
  return db.selectFrom('users').select(['id', 'phone', 'email', 'gateway_customer_id']).where('id', '=', userId).executeTakeFirst();
}

/** The renter's gateway customer id, locking the user row until the transaction ends. */
export function lockCustomerId(trx: Transaction<Database>, userId: string) {
  return trx.selectFrom('users').select(['gateway_customer_id']).where('id', '=', userId).forUpdate().executeTakeFirst();
}

export async function setCustomerId(trx: Transaction<Database>, userId: string, customerId: string): Promise<void> {
  await trx.updateTable('users').set({ gateway_customer_id: customerId }).where('id', '=', userId).execute();
}
