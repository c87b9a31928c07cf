import { randomInt } from 'node:crypto';
import type { StaffRole } from '@ampere/domain/staff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../src/features/audit/repository.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signedInStaff } from './staff.ts';

/** The staff list (decision 081): only an owner invites, changes roles and deactivates; an owner always remains. */
describe.each(engines())('managing staff on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false, env: { PUBLIC_URL: 'http://console.test' } });
  });
  afterAll(() => ctx?.close());

  const newPhone = () => `+1615${randomInt(200, 999)}${String(randomInt(0, 10_000)).padStart(4, '0')}`;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: object) =>
    ctx.app.inject({
      method,
      url: `/api/ops/v1${url}`,
      headers: { cookie },
      ...(payload ? { payload } : {}),
    });
  const staff = (role: StaffRole, name?: string) =>
    signedInStaff(ctx.handle.db, { role, now: ctx.clock.now, ...(name ? { name } : {}) });
  let lotSeq = 0;
  /** A location of its own (a region and its one lot): what a staff member can be given. */
  async function newLot(): Promise<{ locationId: number }> {
    lotSeq += 1;
    const place = { state: 'TN', latitude: 36 + lotSeq / 100, longitude: -86.5, timezone: 'America/Chicago' };
    const region = await ctx.handle.db
      .insertInto('regions')
      .values({ name: `Staffville ${lotSeq}`, ...place })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lot = await ctx.handle.db
      .insertInto('locations')
      .values({
        region_id: region.id,
        name: `Staffville ${lotSeq} Lot`,
        street: '1 Test Way',
        city: `Staffville ${lotSeq}`,
        zip_code: '37000',
        is_airport: false,
        tax_rate_ppm: 90_000,
        pickup_instructions_html: '<p>Ask at the desk.</p>',
        return_instructions_html: '<p>Bay 1.</p>',
        ...place,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { locationId: lot.id };
  }
  const outbox = async (phone: string) =>
    (await ctx.app.inject({ url: `/api/dev/sms?phone=${encodeURIComponent(phone)}` })).json().messages as {
      body: string;
    }[];

  it('lets an owner invite staff, texting them the console’s address, and audits it', async () => {
    const owner = await staff('owner', 'Olivia Owner');
    const lot = await newLot();
    const phone = newPhone();
    const res = await call('POST', '/staff', owner.cookie, {
      phone,
      name: 'Manny Manager',
      role: 'manager',
      locationIds: [String(lot.locationId)],
    });
    expect(res.statusCode, res.body).toBe(201);
    const invited = res.json();
    expect(invited).toMatchObject({
      invitationSent: true,
      staff: { phone, name: 'Manny Manager', role: 'manager', locationIds: [String(lot.locationId)], active: true },
    });
    expect((await outbox(phone))[0]!.body).toBe(
      'Olivia Owner invited you to the Ampere operator console as Manager. Open http://console.test/ops and sign in with this phone number.',
    );
    const [record] = await listAudit(ctx.handle.db, { limit: 1, staffId: owner.id, action: 'staff.invite' });
    expect(record).toMatchObject({ outcome: 'success', target_type: 'staff', target_id: invited.staff.id });
    const list = await call('GET', '/staff', owner.cookie);
    expect(list.json().staff.map((m: { name: string }) => m.name)).toContain('Manny Manager');

    // The same number twice, an unknown location, a bad role: a clear 4xx, nothing written.
    const twice = await call('POST', '/staff', owner.cookie, {
      phone,
      name: 'Again',
      role: 'agent',
      locationIds: 'all',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/already on the staff \(Manager\)/);
    const nowhere = await call('POST', '/staff', owner.cookie, {
      phone: newPhone(),
      name: 'Nowhere',
      role: 'agent',
      locationIds: ['999999'],
    });
    expect(nowhere.statusCode).toBe(422);
    expect(nowhere.json()).toMatchObject({
      field: 'locationIds',
      message: expect.stringMatching(/No location has the id 999999/),
    });
    const badRole = await call('POST', '/staff', owner.cookie, {
      phone: newPhone(),
      name: 'Chief',
      role: 'chief',
      locationIds: 'all',
    });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().field).toBe('role');
    const names = (await call('GET', '/staff', owner.cookie)).json().staff.map((m: { name: string }) => m.name);
    expect(names).not.toContain('Nowhere');
    expect(names).not.toContain('Chief');
  });

  it('holds the staff actions to the matrix: a manager reads the list but cannot invite, an agent cannot read it (403, audited)', async () => {
    const manager = await staff('manager');
    const agent = await staff('agent');
    expect((await call('GET', '/staff', manager.cookie)).statusCode).toBe(200);
    const invite = await call('POST', '/staff', manager.cookie, {
      phone: newPhone(),
      name: 'Sneaky',
      role: 'owner',
      locationIds: 'all',
    });
    expect(invite.statusCode).toBe(403);
    expect(invite.json().message).toBe('Your role (Manager) cannot invite staff. Ask an owner if you need to.');
    const read = await call('GET', '/staff', agent.cookie);
    expect(read.statusCode).toBe(403);
    const target = await staff('viewer');
    for (const [method, url, payload] of [
      ['PATCH', `/staff/${target.id}`, { role: 'owner' }],
      ['POST', `/staff/${target.id}/deactivate`, undefined],
    ] as const)
      expect((await call(method, url, manager.cookie, payload)).statusCode).toBe(403);
    const refused = await listAudit(ctx.handle.db, { limit: 10, staffId: manager.id, outcome: 'failure' });
    expect(refused.map((r) => r.action).sort()).toEqual(['staff.deactivate', 'staff.edit', 'staff.invite']);
    expect((await listAudit(ctx.handle.db, { limit: 5, staffId: agent.id }))[0]).toMatchObject({
      action: 'staff.read',
      outcome: 'failure',
    });
  });

  it('shows a manager of one city the staff of that city, and those who work everywhere, not another city’s', async () => {
    const here = await newLot();
    const there = await newLot();
    const cityManager = await signedInStaff(ctx.handle.db, {
      role: 'manager',
      now: ctx.clock.now,
      locationIds: [String(here.locationId)],
    });
    const colleague = await signedInStaff(ctx.handle.db, {
      role: 'agent',
      now: ctx.clock.now,
      locationIds: [String(here.locationId)],
    });
    const elsewhere = await signedInStaff(ctx.handle.db, {
      role: 'agent',
      now: ctx.clock.now,
      locationIds: [String(there.locationId)],
    });
    const everywhere = await staff('viewer');
    const ids = (await call('GET', '/staff', cityManager.cookie)).json().staff.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining([cityManager.id, colleague.id, everywhere.id]));
    expect(ids).not.toContain(elsewhere.id);
  });

  it('changes a role and locations, with before and after in the log', async () => {
    const owner = await staff('owner');
    const agent = await staff('agent');
    const lot = await newLot();
    const res = await call('PATCH', `/staff/${agent.id}`, owner.cookie, {
      role: 'manager',
      locationIds: [String(lot.locationId)],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ role: 'manager', locationIds: [String(lot.locationId)] });
    const [record] = await listAudit(ctx.handle.db, { limit: 1, staffId: owner.id, action: 'staff.edit' });
    expect(record).toMatchObject({
      before: { role: 'agent', locationIds: 'all' },
      after: { role: 'manager', locationIds: [String(lot.locationId)] },
    });
    // Their next call already sees the new role and scope.
    const me = await ctx.app.inject({ url: '/api/ops/v1/me', headers: { cookie: agent.cookie } });
    expect(me.json()).toMatchObject({ role: 'manager', locationIds: [String(lot.locationId)] });
    expect((await call('PATCH', `/staff/${agent.id}`, owner.cookie, {})).statusCode).toBe(400);
  });

  it('resets a lost passkey: it is removed, their sessions end, and the reset is audited', async () => {
    const owner = await staff('owner');
    const agent = await staff('agent');
    await ctx.handle.db
      .insertInto('staff_passkeys')
      .values({
        credential_id: `cred-${agent.id}`,
        staff_id: agent.id,
        public_key: Buffer.from([1]),
        created_at: ctx.clock.now,
      })
      .execute();
    const manager = await staff('manager');
    expect((await call('POST', `/staff/${agent.id}/reset-passkey`, manager.cookie)).statusCode).toBe(403);
    const res = await call('POST', `/staff/${agent.id}/reset-passkey`, owner.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().hasPasskey).toBe(false);
    expect((await ctx.app.inject({ url: '/api/ops/v1/me', headers: { cookie: agent.cookie } })).statusCode).toBe(401);
    const [record] = await listAudit(ctx.handle.db, { limit: 1, staffId: owner.id, action: 'staff.edit' });
    expect(record).toMatchObject({
      target_id: agent.id,
      before: { passkeys: 1 },
      after: { passkeys: 0, sessionsEnded: 1 },
    });
    const again = await call('POST', `/staff/${agent.id}/reset-passkey`, owner.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/no passkey yet/);
  });

  it('deactivating someone signs them out at once', async () => {
    const owner = await staff('owner');
    const agent = await staff('agent');
    expect((await ctx.app.inject({ url: '/api/ops/v1/me', headers: { cookie: agent.cookie } })).statusCode).toBe(200);
    const res = await call('POST', `/staff/${agent.id}/deactivate`, owner.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().active).toBe(false);
    expect((await ctx.app.inject({ url: '/api/ops/v1/me', headers: { cookie: agent.cookie } })).statusCode).toBe(401);
    const sessions = await ctx.handle.db
      .selectFrom('staff_sessions')
      .select('revoked_at')
      .where('staff_id', '=', agent.id)
      .execute();
    expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
    expect((await call('POST', `/staff/${agent.id}/deactivate`, owner.cookie)).statusCode).toBe(409);
    expect((await call('PATCH', `/staff/${agent.id}`, owner.cookie, { role: 'viewer' })).statusCode).toBe(409);
  });

  it('never leaves the console without an owner: the last one can be neither demoted nor deactivated (409)', async () => {
    const owner = await staff('owner', 'Last Owner');
    // Every other owner goes first.
    const others = (await call('GET', '/staff', owner.cookie))
      .json()
      .staff.filter(
        (m: { id: string; role: string; active: boolean }) => m.role === 'owner' && m.active && m.id !== owner.id,
      );
    for (const other of others)
      expect((await call('POST', `/staff/${other.id}/deactivate`, owner.cookie)).statusCode).toBe(200);

    const demote = await call('PATCH', `/staff/${owner.id}`, owner.cookie, { role: 'manager' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/last active owner/);
    const leave = await call('POST', `/staff/${owner.id}/deactivate`, owner.cookie);
    expect(leave.statusCode).toBe(409);
    const failures = await listAudit(ctx.handle.db, { limit: 5, staffId: owner.id, outcome: 'failure' });
    expect(failures.map((r) => r.action)).toEqual(['staff.deactivate', 'staff.edit']);

    // With a second owner, the first may step down.
    const second = await call('POST', '/staff', owner.cookie, {
      phone: newPhone(),
      name: 'Second Owner',
      role: 'owner',
      locationIds: 'all',
    });
    expect(second.statusCode).toBe(201);
    expect((await call('PATCH', `/staff/${owner.id}`, owner.cookie, { role: 'manager' })).statusCode).toBe(200);
  });
});
