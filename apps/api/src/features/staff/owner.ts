import { normalizePhone } from '@ampere/domain/phone';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { unprocessable } from '../../http/errors.ts';
import { recordAudit } from '../audit/repository.ts';
import { insertStaff, staffByPhone } from './repository.ts';

/**
 * The first owner of the operator console (issue 29, decision 079), made from the command line
 * (`npm run ops:owner -- --phone … --name …`): owners then invite the rest of the staff from the
 * console. Running it again for the same owner changes nothing; a number already on the staff in
 * another role is refused, since roles change in the console, with its audit record.
 */
export async function ensureOwner(
  db: Kysely<Database>,
  input: { phone: string; name: string; now: Date },
): Promise<{ created: boolean; staff: { id: string; phone: string; name: string; role: string } }> {
  const phone = normalizePhone(input.phone);
  if (!phone.ok) throw unprocessable(phone.message, 'phone');
  const name = input.name.trim();
  if (name === '' || name.length > 100) throw unprocessable('Give the owner’s name, up to 100 characters.', 'name');
  return transact(db, async (trx) => {
    const known = await staffByPhone(trx, phone.e164);
    if (known?.role === 'owner') return { created: false, staff: known };
    if (known)
      throw unprocessable(
        `${phone.e164} is already on the staff as ${known.role}: an owner changes staff roles in the console.`,
        'phone',
      );
    const staff = await insertStaff(trx, { phone: phone.e164, name, role: 'owner', invitedBy: null, now: input.now });
    await recordAudit(trx, {
      at: input.now,
      staff: null,
      action: 'staff.create_owner',
      target: { type: 'staff', id: staff.id },
      after: { phone: staff.phone, name: staff.name, role: staff.role },
      sourceAddress: 'command line',
      outcome: 'success',
    });
    return { created: true, staff };
  });
}

/** The demo owner `npm start` makes in development (never in production), printed at start. */
export const DEMO_OWNER = { phone: '+16155550100', name: 'Demo Owner' } as const;

export async function seedDemoOwner(db: Kysely<Database>, now: Date): Promise<{ created: boolean }> {
  const { created } = await ensureOwner(db, { ...DEMO_OWNER, now });
  return { created };
}
