import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FLAG_DEFAULTS } from '@ampere/domain/account';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { SmsSender } from '../src/features/auth/sms-sender.ts';
import { RAISED_RATE_LIMITS, TEST_NOW, type TestContext, createTestContext, engines } from './harness.ts';

const MINUTE = 60_000;
const at = (ms: number) => new Date(TEST_NOW.getTime() + ms);

describe.each(engines())('profile, flags and events on %s', (engine) => {
  let ctx: TestContext;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const sent: { to: string; body: string }[] = [];
  const sms: SmsSender = { kind: 'console', send: async (to, body) => void sent.push({ to, body }) };
  let phoneSeq = 0;
  const nextPhone = () => `+1629555${String(3000 + ++phoneSeq)}`;

  /** Signs a new renter in through the API and returns their session header. */
  async function signIn(phone = nextPhone()) {
    const remoteAddress = `10.1.0.${(phoneSeq % 250) + 1}`;
    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/sms/send', payload: { phone }, remoteAddress }))
        .statusCode,
    ).toBe(200);
    const code = /code is (\d{6})/.exec(sent.filter((m) => m.to === phone).at(-1)!.body)![1]!;
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/sms/verify',
      payload: { phone, code },
      remoteAddress,
    });
    expect(res.statusCode).toBe(200);
    const { session_token, user } = res.json();
    return { headers: { stytch_auth: session_token as string }, user: user as { id: string } };
  }
  const patch = (headers: Record<string, string>, payload: unknown) =>
    app.inject({ method: 'PATCH', url: '/api/v1/users/profile', headers, payload: payload as object });
  const getUser = async (headers: Record<string, string>) =>
    (await app.inject({ url: '/api/v1/users', headers })).json().user;

  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
    // The same database with a sender that keeps the codes in memory.
    app = await buildApp({
      config: loadConfig({ SEED_DEMO: 'false', WEB_DIST: '/nonexistent', ...RAISED_RATE_LIMITS }),
      db: ctx.handle.db,
      clock: () => ctx.clock.now,
      sms,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });
  beforeEach(() => {
    ctx.clock.now = TEST_NOW;
  });

  describe('profile', () => {
    it('signed out, the profile calls are 401', async () => {
      expect((await app.inject({ url: '/api/v1/users' })).statusCode).toBe(401);
      expect((await app.inject({ url: '/api/v1/users/insurance/recent' })).statusCode).toBe(401);
      expect((await patch({}, { first_name: 'Ada' })).statusCode).toBe(401);
      expect((await patch({ stytch_auth: 'nope' }, { first_name: 'Ada' })).statusCode).toBe(401);
    });

    it('reads the signed-in renter, without internal columns', async () => {
      const phone = nextPhone();
      const { headers, user } = await signIn(phone);
      const res = await app.inject({ url: '/api/v1/users', headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({
        id: user.id,
        phone,
        first_name: null,
        birthday: null,
        created_at: TEST_NOW.toISOString(),
      });
      expect(Object.keys(res.json().user)).not.toContain('gateway_customer_id');
      expect(Object.keys(res.json().user)).not.toContain('updated_at');
    });

    it('updates every field, trimming names, upper-casing the state and writing the country lowercase', async () => {
      const { headers, user } = await signIn();
      ctx.clock.now = at(5 * MINUTE);
      const res = await patch(headers, {
        first_name: '  Ada ',
        last_name: ' Lovelace',
        email: ' ada@example.com ',
        birthday: '1990-12-10',
        address_line1: '501 Broadway',
        address_line2: 'Apt 4',
        city: 'Nashville',
        state: 'tn',
        zip_code: '37203-1234',
        country: 'US',
      });
      expect(res.statusCode).toBe(200);
      const expected = {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        birthday: '1990-12-10',
        address_line1: '501 Broadway',
        address_line2: 'Apt 4',
        city: 'Nashville',
        state: 'TN',
        zip_code: '37203-1234',
        country: 'us',
      };
      expect(res.json().user).toMatchObject(expected);
      expect(await getUser(headers)).toMatchObject(expected);
      const row = await ctx.handle.db
        .selectFrom('users')
        .select(['updated_at', 'created_at'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(new Date(row.updated_at).toISOString()).toBe(at(5 * MINUTE).toISOString());
      expect(new Date(row.created_at).toISOString()).toBe(TEST_NOW.toISOString());
    });

    it.each([
      [{ email: 'ada@example' }, 'email', 'Please enter a valid email address'],
      [{ email: '' }, 'email', 'Email is required'],
      // route.ts words every wrong-type value 'is required' (zod 4 leaves issue.input out unless
      // parsed with reportInput: true); the contract's own message is 'cannot be cleared'.
      [{ email: null }, 'email', expect.stringMatching(/^email (cannot be cleared|is required)$/)],
      [{ birthday: '12/10/1990' }, 'birthday', 'Birthday must be a date written YYYY-MM-DD'],
      [{ birthday: '1990-02-30' }, 'birthday', 'Birthday is not a real date'],
      [{ state: 'XX' }, 'state', 'State must be a two-letter US state code, e.g. TN'],
      [{ state: 'Tennessee' }, 'state', 'state must be a two-letter state code'],
      [{ zip_code: '3720' }, 'zip_code', 'ZIP code must be 5 digits, e.g. 37203'],
      [
        { country: 'ca' },
        'country',
        "We only rent to renters with a United States address; country must be 'us', not 'ca'",
      ],
      [{ first_name: '   ' }, 'first_name', 'first_name must not be blank'],
      [{ first_name: null }, 'first_name', expect.stringMatching(/^first_name (cannot be cleared|is required)$/)],
      [{ last_name: '' }, 'last_name', 'last_name must not be blank'],
      [{ phone: '+16155550199' }, undefined, 'Unknown body field: phone'],
      [{ id: '00000000-0000-0000-0000-000000000000' }, undefined, 'Unknown body field: id'],
    ])('refuses %j naming the field', async (payload, field, message) => {
      const { headers } = await signIn();
      const before = await getUser(headers);
      const res = await patch(headers, { city: 'Austin', ...payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', message, ...(field ? { field } : {}) });
      // Nothing of a refused patch is kept.
      expect(await getUser(headers)).toEqual(before);
    });

    it('accepts a renter who turns 18 today and refuses one who turns 18 tomorrow', async () => {
      const { headers } = await signIn();
      const young = await patch(headers, { birthday: '2008-11-23' });
      expect(young.statusCode).toBe(400);
      expect(young.json()).toMatchObject({
        field: 'birthday',
        message: 'You must be at least 18 years old to rent with us',
      });
      expect((await patch(headers, { birthday: '2008-11-22' })).json().user.birthday).toBe('2008-11-22');
    });

    it('reads "today" for the age rule on Central time, not UTC', async () => {
      const { headers } = await signIn();
      // 03:00 UTC on 23 November is still the evening of the 22nd in Nashville.
      ctx.clock.now = new Date('2026-11-23T03:00:00Z');
      expect((await patch(headers, { birthday: '2008-11-23' })).statusCode).toBe(400);
      ctx.clock.now = new Date('2026-11-23T06:00:00Z');
      expect((await patch(headers, { birthday: '2008-11-23' })).statusCode).toBe(200);
    });

    it("clears address fields sent as null or '', and leaves fields not sent alone", async () => {
      const { headers } = await signIn();
      await patch(headers, {
        first_name: 'Ada',
        address_line1: '1 Main St',
        address_line2: 'Unit 2',
        city: 'Austin',
        state: 'TX',
        zip_code: '78701',
        country: 'us',
      });
      const res = await patch(headers, { address_line2: null, city: '', state: null, zip_code: '', country: null });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({
        first_name: 'Ada',
        address_line1: '1 Main St',
        address_line2: null,
        city: null,
        state: null,
        zip_code: null,
        country: null,
      });
      expect(await getUser(headers)).toMatchObject({ address_line1: '1 Main St', address_line2: null, city: null });
    });

    it('an empty patch changes nothing', async () => {
      const { headers } = await signIn();
      const before = await getUser(headers);
      const res = await patch(headers, {});
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toEqual(before);
    });

    it('a renter only ever reads and changes their own profile', async () => {
      const a = await signIn();
      const b = await signIn();
      await patch(b.headers, { first_name: 'Bea', email: 'bea@example.com' });
      const res = await patch(a.headers, { first_name: 'Ann', email: 'ann@example.com' });
      expect(res.json().user.id).toBe(a.user.id);
      expect(await getUser(a.headers)).toMatchObject({ id: a.user.id, first_name: 'Ann', email: 'ann@example.com' });
      expect(await getUser(b.headers)).toMatchObject({ id: b.user.id, first_name: 'Bea', email: 'bea@example.com' });
    });

    it('lists the latest 10 insurance connections, newest first, with their policies', async () => {
      const a = await signIn();
      const b = await signIn();
      const db = ctx.handle.db;
      await db
        .insertInto('insurance_verifications')
        .values(
          Array.from({ length: 12 }, (_, i) => ({
            user_id: a.user.id,
            status: i === 11 ? 'PENDING' : 'ACTIVE',
            carrier: i === 11 ? null : 'State Farm',
            policy_number: i === 11 ? null : `POL-${i}`,
            created_at: at(i * MINUTE),
          })),
        )
        .execute();
      await db
        .insertInto('insurance_verifications')
        .values({ user_id: b.user.id, status: 'ACTIVE', carrier: 'Geico', policy_number: 'B-1', created_at: TEST_NOW })
        .execute();

      const res = await app.inject({ url: '/api/v1/users/insurance/recent', headers: a.headers });
      expect(res.statusCode).toBe(200);
      const { insurance_verifications: list, user } = res.json();
      expect(user.id).toBe(a.user.id);
      expect(list).toHaveLength(10);
      expect(list[0]).toMatchObject({ status: 'PENDING', policies: [], created_at: at(11 * MINUTE).toISOString() });
      expect(list[1]).toMatchObject({
        status: 'ACTIVE',
        policies: [{ axle_policy_carrier: 'State Farm', axle_policy_number: 'POL-10' }],
      });
      expect(list.at(-1).policies[0].axle_policy_number).toBe('POL-2');

      const other = (await app.inject({ url: '/api/v1/users/insurance/recent', headers: b.headers })).json();
      expect(
        other.insurance_verifications.map(
          (v: { policies: { axle_policy_number: string }[] }) => v.policies[0]!.axle_policy_number,
        ),
      ).toEqual(['B-1']);
    });
  });

  describe('feature flags', () => {
    it('signed out, and with a session header that is not valid, the defaults', async () => {
      for (const headers of [{}, { stytch_auth: 'expired-or-made-up' }]) {
        const res = await app.inject({ url: '/api/v1/flags', headers });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ flags: FLAG_DEFAULTS });
      }
    });

    it("a renter's overrides apply to that renter only; an override of the wrong type or an unknown flag is ignored", async () => {
      const a = await signIn();
      const b = await signIn();
      await ctx.handle.db
        .insertInto('flag_overrides')
        .values([
          { user_id: a.user.id, key: 'skip-damage-waiver', value: JSON.stringify(true) },
          { user_id: a.user.id, key: 'button-background', value: JSON.stringify('#ff0000') },
          { user_id: a.user.id, key: 'allow-add-card', value: JSON.stringify('no') },
          { user_id: a.user.id, key: 'not-a-flag', value: JSON.stringify(1) },
        ])
        .execute();
      expect((await app.inject({ url: '/api/v1/flags', headers: a.headers })).json()).toEqual({
        flags: { ...FLAG_DEFAULTS, 'skip-damage-waiver': true, 'button-background': '#ff0000' },
      });
      expect((await app.inject({ url: '/api/v1/flags', headers: b.headers })).json()).toEqual({ flags: FLAG_DEFAULTS });
    });
  });

  describe('analytics events', () => {
    const post = (payload: unknown, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: '/api/v1/events', payload: payload as object, headers });
    const eventsNamed = (anonymousId: string) =>
      ctx.handle.db
        .selectFrom('analytics_events')
        .select(['name', 'user_id', 'anonymous_id', 'properties', 'occurred_at', 'received_at'])
        .where('anonymous_id', '=', anonymousId)
        .orderBy('id')
        .execute();

    it('accepts events from an anonymous visitor (202), received now, occurring when the browser says', async () => {
      ctx.clock.now = at(MINUTE);
      const res = await post({
        anonymous_id: 'visitor-1',
        events: [
          { name: 'search_performed', properties: { query: 'Nashville, TN', resultCount: 12 } },
          { name: 'vehicle_card_clicked', occurred_at: '2026-11-22T14:59:30Z' },
        ],
      });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ accepted: 2 });
      const rows = await eventsNamed('visitor-1');
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({
        name: 'search_performed',
        user_id: null,
        properties: { query: 'Nashville, TN', resultCount: 12 },
      });
      expect(new Date(rows[0]!.occurred_at).toISOString()).toBe(at(MINUTE).toISOString());
      expect(new Date(rows[1]!.occurred_at).toISOString()).toBe('2026-11-22T14:59:30.000Z');
      expect(rows.every((r) => new Date(r.received_at).toISOString() === at(MINUTE).toISOString())).toBe(true);
      expect(rows[1]!.properties).toEqual({});
    });

    it('links events to the signed-in renter', async () => {
      const { headers, user } = await signIn();
      expect(
        (await post({ anonymous_id: 'visitor-2', events: [{ name: 'booking_started' }] }, headers)).statusCode,
      ).toBe(202);
      expect((await eventsNamed('visitor-2'))[0]).toMatchObject({ name: 'booking_started', user_id: user.id });
    });

    it('an unknown, expired or signed-out session header still records, anonymously (never 401)', async () => {
      const { headers } = await signIn();
      await app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers });
      for (const h of [{ stytch_auth: 'made-up' }, headers]) {
        expect((await post({ anonymous_id: 'visitor-3', events: [{ name: 'filter_applied' }] }, h)).statusCode).toBe(
          202,
        );
      }
      const rows = await eventsNamed('visitor-3');
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.user_id === null)).toBe(true);
    });

    it('refuses an unknown event name, a bad time and an empty batch, naming the field', async () => {
      expect((await post({ events: [{ name: 'made_up_event' }] })).json()).toMatchObject({
        statusCode: 400,
        field: 'events.0.name',
        message: 'events.0.name is not a known event name',
      });
      expect((await post({ events: [{ name: 'search_performed', occurred_at: 'yesterday' }] })).json()).toMatchObject({
        statusCode: 400,
        field: 'events.0.occurred_at',
      });
      expect((await post({ events: [] })).json()).toMatchObject({ statusCode: 400, field: 'events' });
      expect(
        (await post({ events: Array.from({ length: 51 }, () => ({ name: 'search_performed' })) })).json(),
      ).toMatchObject({ statusCode: 400, field: 'events' });
    });
  });
});
