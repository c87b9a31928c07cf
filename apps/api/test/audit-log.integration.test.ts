import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit, recordAudit } from '../src/features/audit/repository.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

describe.each(engines())('the audit log on %s', (engine) => {
  let ctx: TestContext;
  let ownerId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
    const owner = await ctx.handle.db
      .insertInto('staff')
      .values({
        phone: '+16155550100',
        name: 'Olivia Owner',
        role: 'owner',
        created_at: ctx.clock.now,
        invited_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ownerId = owner.id;
  });
  afterAll(() => ctx?.close());

  it('keeps who did what, to what, from where, before and after, and whether it succeeded', async () => {
    const id = await recordAudit(ctx.handle.db, {
      at: ctx.clock.now,
      staff: { id: ownerId, role: 'owner' },
      action: 'cars.edit',
      target: { type: 'vehicle', id: '5YJ3E1EA7KF000001' },
      before: { daily_rate_cents: 8_900 },
      after: { daily_rate_cents: 9_900 },
      sourceAddress: '203.0.113.7',
      outcome: 'success',
    });
    await recordAudit(ctx.handle.db, {
      at: ctx.clock.now,
      staff: null,
      action: 'staff.sign_in',
      sourceAddress: '198.51.100.9',
      outcome: 'failure',
      reason: 'The code is wrong.',
    });
    const [failed, edited] = await listAudit(ctx.handle.db, { limit: 10 });
    expect(failed).toMatchObject({
      action: 'staff.sign_in',
      staff_id: null,
      outcome: 'failure',
      reason: 'The code is wrong.',
    });
    expect(edited).toMatchObject({
      id,
      staff_id: ownerId,
      staff_role: 'owner',
      action: 'cars.edit',
      target_type: 'vehicle',
      target_id: '5YJ3E1EA7KF000001',
      before: { daily_rate_cents: 8_900 },
      after: { daily_rate_cents: 9_900 },
      source_address: '203.0.113.7',
      outcome: 'success',
    });
    expect(new Date(edited!.at as Date).toISOString()).toBe(ctx.clock.now.toISOString());
    expect(await listAudit(ctx.handle.db, { limit: 10, outcome: 'failure' })).toHaveLength(1);
    expect(
      await listAudit(ctx.handle.db, { limit: 10, targetType: 'vehicle', targetId: '5YJ3E1EA7KF000001' }),
    ).toHaveLength(1);
  });

  it('refuses to change, remove or empty a record, whoever asks, and keeps it as it was', async () => {
    const id = await recordAudit(ctx.handle.db, {
      at: ctx.clock.now,
      staff: { id: ownerId, role: 'owner' },
      action: 'refunds.issue',
      target: { type: 'payment', id: 'pi_1' },
      after: { refunded_cents: 4_500 },
      outcome: 'success',
    });
    const attempts = [
      sql`update audit_log set outcome = 'failure' where id = ${id}`,
      sql`update audit_log set after = null`,
      sql`delete from audit_log where id = ${id}`,
      sql`delete from audit_log`,
      sql`truncate audit_log`,
    ];
    for (const attempt of attempts)
      await expect(attempt.execute(ctx.handle.db), attempt.compile(ctx.handle.db).sql).rejects.toThrow(
        /The audit log is append-only/,
      );
    const kept = await ctx.handle.db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ outcome: 'success', after: { refunded_cents: 4_500 } });
    expect(
      Number(
        (
          await ctx.handle.db
            .selectFrom('audit_log')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(3);
  });
});
