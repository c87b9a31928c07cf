import { SESSION_HEADER } from '@ampere/domain/contract/first-screen';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../src/features/audit/repository.ts';
import { revokeStaffSession } from '../src/features/staff/session-repository.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signedInStaff } from './staff.ts';

/** The console's door (decision 080): a staff session, past its passkey, in a role allowed the action. */
describe.each(engines())('the operator console’s door on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
  });
  afterAll(() => ctx?.close());

  const readLog = (cookie?: string, query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/ops/v1/audit${query}`, headers: cookie ? { cookie } : {} });
  const failures = async (reasonPart: string) =>
    (await listAudit(ctx.handle.db, { limit: 200, outcome: 'failure', action: 'audit.read' })).filter((r) =>
      r.reason?.includes(reasonPart),
    );

  it('keeps out a request without a staff session, says so, and audits the attempt', async () => {
    const res = await readLog();
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Please sign in to the operator console to continue.');
    expect(await failures('Please sign in to the operator console')).not.toHaveLength(0);
  });

  it('never takes a renter’s session for a staff one', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/ops/v1/audit',
      headers: { [SESSION_HEADER]: 'a-renter-token', cookie: 'ampere_session=a-renter-token' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('keeps out a session whose passkey step is not done', async () => {
    const half = await signedInStaff(ctx.handle.db, { role: 'owner', now: ctx.clock.now, passkeyVerified: false });
    const res = await readLog(half.cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Finish signing in with your passkey to continue.');
  });

  it('refuses a role the matrix does not allow with a 403 naming the role, and audits who tried', async () => {
    const viewer = await signedInStaff(ctx.handle.db, { role: 'viewer', now: ctx.clock.now });
    const res = await readLog(viewer.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your role (Viewer) cannot read the audit log. Ask an owner if you need to.');
    const [attempt] = (await listAudit(ctx.handle.db, { limit: 10, staffId: viewer.id })).filter(
      (r) => r.action === 'audit.read',
    );
    expect(attempt).toMatchObject({ staff_role: 'viewer', outcome: 'failure' });
    expect(attempt!.source_address).toBeTruthy();
  });

  it('lets a manager read the log, newest first, and names a bad filter with a 400 that is audited', async () => {
    const manager = await signedInStaff(ctx.handle.db, { role: 'manager', now: ctx.clock.now, name: 'Maya Manager' });
    const ok = await readLog(manager.cookie, '?outcome=failure&limit=2');
    expect(ok.statusCode).toBe(200);
    const page = ok.json();
    expect(page.records).toHaveLength(2);
    expect(page.records[0].id).toBeGreaterThan(page.records[1].id);
    expect(page.next).toBe(page.records[1].id);
    const bad = await readLog(manager.cookie, '?outcome=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('outcome');
    const mine = await listAudit(ctx.handle.db, { limit: 10, staffId: manager.id });
    expect(mine[0]).toMatchObject({ outcome: 'failure', action: 'audit.read' });
    expect(mine[0]!.reason).toContain('400');
  });

  it('ends a revoked session', async () => {
    const owner = await signedInStaff(ctx.handle.db, { role: 'owner', now: ctx.clock.now });
    expect((await readLog(owner.cookie)).statusCode).toBe(200);
    await revokeStaffSession(ctx.handle.db, owner.sessionId, ctx.clock.now);
    const res = await readLog(owner.cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Your console session has ended. Please sign in again.');
  });

  it('shows a manager of one city only that city’s records and their own', async () => {
    const lotA = crypto.randomUUID();
    const lotB = crypto.randomUUID();
    const owner = await signedInStaff(ctx.handle.db, { role: 'owner', now: ctx.clock.now });
    const { recordAudit } = await import('../src/features/audit/repository.ts');
    for (const locationId of [lotA, lotB])
      await recordAudit(ctx.handle.db, {
        at: ctx.clock.now,
        staff: { id: owner.id, role: 'owner' },
        action: 'locations.edit',
        target: { type: 'location', id: locationId },
        locationId,
        outcome: 'success',
      });
    const cityManager = await signedInStaff(ctx.handle.db, {
      role: 'manager',
      locationIds: [lotA],
      now: ctx.clock.now,
    });
    const seen = (await readLog(cityManager.cookie, '?action=locations.edit')).json().records;
    expect(seen.map((r: { locationId: string }) => r.locationId)).toEqual([lotA]);
  });
});
