import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../src/features/audit/repository.ts';
import { ensureOwner } from '../src/features/staff/owner.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

describe.each(engines())('the first owner, made from the command line, on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
  });
  afterAll(() => ctx?.close());

  it('is written once, in E.164, with an audit record; running it again changes nothing', async () => {
    const first = await ensureOwner(ctx.handle.db, {
      phone: '(615) 555-0100',
      name: ' Olivia Reyes ',
      now: ctx.clock.now,
    });
    expect(first).toMatchObject({
      created: true,
      staff: { phone: '+16155550100', name: 'Olivia Reyes', role: 'owner' },
    });
    const again = await ensureOwner(ctx.handle.db, {
      phone: '+1 615 555 0100',
      name: 'Olivia Reyes',
      now: ctx.clock.now,
    });
    expect(again).toMatchObject({ created: false, staff: { id: first.staff.id } });
    const records = await listAudit(ctx.handle.db, { limit: 10, action: 'staff.create_owner' });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      staff_id: null,
      target_type: 'staff',
      target_id: first.staff.id,
      after: { phone: '+16155550100', name: 'Olivia Reyes', role: 'owner' },
      source_address: 'command line',
      outcome: 'success',
    });
  });

  it('refuses a number it cannot text and a blank name, saying which, and writes nothing', async () => {
    await expect(ensureOwner(ctx.handle.db, { phone: '12', name: 'Sam', now: ctx.clock.now })).rejects.toMatchObject({
      message: 'Enter a valid mobile phone number, e.g. (615) 555-0123.',
      field: 'phone',
    });
    await expect(
      ensureOwner(ctx.handle.db, { phone: '(615) 555-0199', name: '  ', now: ctx.clock.now }),
    ).rejects.toMatchObject({ field: 'name' });
    expect(
      await ctx.handle.db.selectFrom('staff').select('phone').where('phone', '=', '+16155550199').execute(),
    ).toEqual([]);
  });

  it('does not turn a member of staff in another role into an owner', async () => {
    await ctx.handle.db
      .insertInto('staff')
      .values({
        phone: '+16155550111',
        name: 'Max Manager',
        role: 'manager',
        invited_by: null,
        created_at: ctx.clock.now,
      })
      .execute();
    await expect(
      ensureOwner(ctx.handle.db, { phone: '(615) 555-0111', name: 'Max Manager', now: ctx.clock.now }),
    ).rejects.toThrow('+16155550111 is already on the staff as manager: an owner changes staff roles in the console.');
  });
});
