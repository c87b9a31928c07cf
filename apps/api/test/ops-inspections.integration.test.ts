import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSPECTION_VIEWS } from '@ampere/domain/inspections';
import { listAudit } from '../src/features/audit/repository.ts';
import { hashOf } from '../src/features/keys/repository.ts';
import { CarUnreachableError } from '../src/features/vehicle-access/provider.ts';
import { SimulatedFleet } from '../src/features/vehicle-access/simulated-fleet.ts';
import { carAt, tripOf } from './day-factories.ts';
import { carAtNewLot } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';
import { signedInStaff } from './staff.ts';

const photo = (color: string, width = 1200, height = 800) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

const HOUR = 3_600_000;

/** Inspections at check-out and check-in (issue 30 §1, decisions 089 and 090). */
describe.each(engines())('inspections on %s', (engine) => {
  let ctx: TestContext;
  let dataDir: string;
  let lot: Awaited<ReturnType<typeof carAtNewLot>>;
  let other: Awaited<ReturnType<typeof carAtNewLot>>;
  let agent: { id: string; cookie: string };
  let viewer: { id: string; cookie: string };
  let elsewhere: { id: string; cookie: string };
  let renter: SignedIn;
  let stranger: SignedIn;
  /** Cars whose telematics do not answer. */
  const asleep = new Set<string>();

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-inspections-'));
    ctx = await createTestContext(engine, {
      env: { DATA_DIR: dataDir },
      providers: (db, clock) => ({
        vehicleAccess: new (class extends SimulatedFleet {
          override state(car: Parameters<SimulatedFleet['state']>[0]) {
            if (asleep.has(car.vin)) return Promise.reject(new CarUnreachableError('The car is asleep.'));
            return super.state(car);
          }
        })(db, clock),
      }),
    });
    const db = ctx.handle.db;
    lot = await carAtNewLot(db, null);
    other = await carAtNewLot(db, null);
    const here = [String(lot.locationId)];
    const now = ctx.clock.now;
    agent = await signedInStaff(db, { role: 'agent', locationIds: here, now, name: 'Ana Desk' });
    viewer = await signedInStaff(db, { role: 'viewer', locationIds: here, now });
    elsewhere = await signedInStaff(db, { role: 'manager', locationIds: [String(other.locationId)], now });
    renter = await signInAs(ctx);
    stranger = await signInAs(ctx);
    await db
      .updateTable('users')
      .set({ first_name: 'Sam', last_name: 'Rivera' })
      .where('id', '=', renter.userId)
      .execute();
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A paid trip of the renter on a new car of the lot, picking up `fromNowHours` from the test's now. */
  async function trip(fromNowHours: number, status: 'Pending' | 'On Rent' | 'Canceled' | 'Started' = 'Pending') {
    const car = await carAt(ctx.handle.db, lot.locationId);
    const pickup = new Date(ctx.clock.now.getTime() + fromNowHours * HOUR);
    const t = await tripOf(
      ctx.handle.db,
      car.vin,
      renter.userId,
      pickup.toISOString(),
      new Date(pickup.getTime() + 48 * HOUR).toISOString(),
      status,
    );
    return { ...t, vin: car.vin };
  }

  const ops = (cookie: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: Buffer | object, type?: string) =>
    ctx.app.inject({
      method,
      url: `/api/ops/v1${url}`,
      headers: {
        cookie,
        ...(body === undefined
          ? {}
          : { 'content-type': type ?? (Buffer.isBuffer(body) ? 'image/jpeg' : 'application/json') }),
      },
      ...(body === undefined ? {} : { payload: body as Buffer }),
    });
  const storedFiles = () =>
    fs.existsSync(path.join(dataDir, 'photos', 'inspections'))
      ? fs
          .readdirSync(path.join(dataDir, 'photos', 'inspections'), { recursive: true })
          .filter((f) => String(f).endsWith('.webp'))
      : [];
  const rowsOf = async (tripId: string) => {
    const db = ctx.handle.db;
    const inspections = await db.selectFrom('inspections').selectAll().where('reservation_id', '=', tripId).execute();
    const ids = inspections.map((i) => i.id);
    const photos = ids.length
      ? await db.selectFrom('inspection_photos').selectAll().where('inspection_id', 'in', ids).execute()
      : [];
    const damage = ids.length
      ? await db.selectFrom('inspection_damage').selectAll().where('inspection_id', 'in', ids).execute()
      : [];
    return { inspections, photos, damage };
  };
  const failuresOf = async (staffId: string, action: string) =>
    (await listAudit(ctx.handle.db, { limit: 50, staffId })).filter(
      (r) => r.action === action && r.outcome === 'failure',
    );

  it('refuses a viewer every write with a 403, audited, while letting them read', async () => {
    const t = await trip(1);
    const base = `/trips/${t.platformId}/inspections/check_out`;
    const before = (await failuresOf(viewer.id, 'inspections.record')).length;
    expect((await ops(viewer.cookie, 'POST', base)).statusCode).toBe(403);
    const upload = await ops(viewer.cookie, 'POST', `${base}/photos/FRONT`, await photo('#c00'));
    expect(upload.statusCode).toBe(403);
    expect(upload.json().message).toContain('Viewer');
    expect((await failuresOf(viewer.id, 'inspections.record')).length).toBe(before + 2);
    const read = await ops(viewer.cookie, 'GET', base);
    expect(read.statusCode).toBe(200);
    expect(read.json().inspection).toBeNull();
    expect((await rowsOf(t.id)).inspections).toHaveLength(0);
  });

  it('answers 404 for another location’s trip, audited, and writes nothing', async () => {
    const t = await trip(2);
    const base = `/trips/${t.platformId}/inspections/check_out`;
    const res = await ops(elsewhere.cookie, 'POST', `${base}/photos/FRONT`, await photo('#c00'));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`No trip ${t.platformId} in your locations.`);
    expect((await ops(elsewhere.cookie, 'GET', base)).statusCode).toBe(404);
    expect((await ops(elsewhere.cookie, 'GET', `/trips/${t.platformId}/inspections/compare`)).statusCode).toBe(404);
    const [attempt] = await failuresOf(elsewhere.id, 'inspections.record');
    expect(attempt).toMatchObject({ target_type: 'trip', target_id: t.platformId });
    expect((await rowsOf(t.id)).inspections).toHaveLength(0);
  });

  it('refuses bad files and bad fields with a clear 4xx, and writes no row and no file', async () => {
    const t = await trip(3);
    const base = `/trips/${t.platformId}/inspections/check_out`;
    const files = storedFiles().length;
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#0c0' } })
      .gif()
      .toBuffer();
    const cases: [Buffer, string, number, RegExp][] = [
      [Buffer.from('hello, not a photo'), 'image/jpeg', 400, /not an image we can read/],
      [gif, 'image/gif', 400, /GIF format are not taken/],
      [Buffer.alloc(0), 'image/jpeg', 400, /empty/],
      [Buffer.from('{}'), 'text/plain', 400, /Send the photo itself as the body/],
    ];
    for (const [body, type, status, message] of cases) {
      const res = await ops(agent.cookie, 'POST', `${base}/photos/FRONT`, body, type);
      expect(res.statusCode, type).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const view = await ops(agent.cookie, 'POST', `${base}/photos/SUNROOF`, await photo('#c00'));
    expect(view.statusCode).toBe(400);
    expect(view.json().field).toBe('view');
    const stage = await ops(agent.cookie, 'POST', `/trips/${t.platformId}/inspections/midway`);
    expect(stage.statusCode).toBe(400);
    expect(stage.json().field).toBe('stage');
    const off = await ops(agent.cookie, 'POST', `${base}/damage`, {
      x: 1.5,
      y: 0.2,
      view: 'FRONT',
      severity: 'minor',
      note: 'Scratch',
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toContain('on the drawing');
    const noNote = await ops(agent.cookie, 'POST', `${base}/damage`, {
      x: 0.5,
      y: 0.2,
      view: 'FRONT',
      severity: 'minor',
      note: ' ',
    });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().field).toBe('note');
    expect(await rowsOf(t.id)).toEqual({ inspections: [], photos: [], damage: [] });
    expect(storedFiles()).toHaveLength(files);
  });

  it('refuses to inspect a cancelled or unpaid trip with a 409', async () => {
    for (const status of ['Canceled', 'Started'] as const) {
      const t = await trip(4 + (status === 'Started' ? 60 : 0), status);
      const res = await ops(
        agent.cookie,
        'POST',
        `/trips/${t.platformId}/inspections/check_out/photos/FRONT`,
        await photo('#c00'),
      );
      expect(res.statusCode, status).toBe(409);
      expect(res.json().message).toMatch(status === 'Canceled' ? /was cancelled/ : /not paid yet/);
      expect((await rowsOf(t.id)).inspections).toHaveLength(0);
    }
  });

  it('records the guided set with each photo’s time and reading, damage with close-ups, and completes only when all eight are in', async () => {
    const t = await trip(0.5);
    const base = `/trips/${t.platformId}/inspections/check_out`;
    const started = await ops(agent.cookie, 'POST', base);
    expect(started.statusCode).toBe(200);
    expect(started.json().inspection).toMatchObject({ stage: 'check_out', startedBy: 'Ana Desk', completedAt: null });
    expect(started.json().inspection.missingViews).toEqual([...INSPECTION_VIEWS]);
    // Starting again changes nothing.
    expect((await ops(agent.cookie, 'POST', base)).json().inspection.id).toBe(started.json().inspection.id);

    for (const view of INSPECTION_VIEWS.slice(0, 7)) {
      const res = await ops(agent.cookie, 'POST', `${base}/photos/${view.toLowerCase()}`, await photo('#246'));
      expect(res.statusCode, view).toBe(201);
    }
    const early = await ops(agent.cookie, 'POST', `${base}/complete`);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe('Take the photo still missing first: interior.');

    // With the car asleep the photo is kept, without a reading.
    asleep.add(t.vin);
    const last = await ops(agent.cookie, 'POST', `${base}/photos/INTERIOR`, await photo('#246'));
    asleep.delete(t.vin);
    expect(last.statusCode).toBe(201);
    const inspection = last.json().inspection;
    expect(inspection.missingViews).toEqual([]);
    expect(inspection.views.map((p: { view: string }) => p.view)).toEqual([...INSPECTION_VIEWS]);
    const front = inspection.views[0];
    expect(front).toMatchObject({ takenBy: 'staff', takenByName: 'Ana Desk', takenAt: ctx.clock.now.toISOString() });
    expect(front.reading.batteryLevel).toBeGreaterThan(0);
    expect(front.reading.odometerMiles).toBe(8_000);
    expect(inspection.views.at(-1).reading).toEqual({ batteryLevel: null, odometerMiles: null });

    // The file is served at its address, resized.
    const file = await ctx.app.inject({ url: front.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect((await sharp(file.rawPayload).metadata()).width).toBe(960);

    // A retake replaces the view's photo, and its old files go.
    const retake = await ops(agent.cookie, 'POST', `${base}/photos/FRONT`, await photo('#642'));
    const newFront = retake.json().inspection.views[0];
    expect(newFront.id).not.toBe(front.id);
    expect((await ctx.app.inject({ url: front.url })).statusCode).toBe(404);
    expect((await rowsOf(t.id)).photos.filter((p) => p.view === 'FRONT')).toHaveLength(1);

    // Damage: a mark with a note and a close-up; a mark made by mistake is removed with its close-ups.
    const mark = await ops(agent.cookie, 'POST', `${base}/damage`, {
      x: 0.2,
      y: 0.08,
      view: 'LF_CORNER',
      severity: 'minor',
      note: 'Scuff on the front left bumper',
    });
    expect(mark.statusCode).toBe(201);
    const markId = mark.json().inspection.damage[0].id as string;
    const closeup = await ops(agent.cookie, 'POST', `${base}/damage/${markId}/photos`, await photo('#999'));
    expect(closeup.statusCode).toBe(201);
    expect(closeup.json().inspection.damage[0]).toMatchObject({
      note: 'Scuff on the front left bumper',
      severity: 'minor',
      closeups: [expect.objectContaining({ damageId: markId, view: null })],
    });
    const mistake = await ops(agent.cookie, 'POST', `${base}/damage`, {
      x: 0.9,
      y: 0.5,
      view: 'R_SIDE',
      severity: 'major',
      note: 'Wrong car',
    });
    type Mark = { id: string; note: string; closeups: { url: string }[] };
    const byNote = (body: { inspection: { damage: Mark[] } }, note: string) =>
      body.inspection.damage.find((d) => d.note === note)!;
    const mistakeId = byNote(mistake.json(), 'Wrong car').id;
    const withCloseup = await ops(agent.cookie, 'POST', `${base}/damage/${mistakeId}/photos`, await photo('#999'));
    const mistakeCloseup = byNote(withCloseup.json(), 'Wrong car').closeups[0]!;
    const removed = await ops(agent.cookie, 'DELETE', `${base}/damage/${mistakeId}`);
    expect(removed.json()).toEqual({ id: mistakeId, removed: true });
    expect((await ctx.app.inject({ url: mistakeCloseup.url })).statusCode).toBe(404);
    expect((await ops(agent.cookie, 'DELETE', `${base}/damage/${mistakeId}`)).statusCode).toBe(404);
    expect(
      (await ops(agent.cookie, 'POST', `${base}/damage/${randomUUID()}/photos`, await photo('#999'))).statusCode,
    ).toBe(404);

    const done = await ops(agent.cookie, 'POST', `${base}/complete`);
    expect(done.statusCode).toBe(200);
    expect(done.json().inspection).toMatchObject({ completedBy: 'Ana Desk', completedAt: ctx.clock.now.toISOString() });

    // A completed inspection is the record: no more changes, and nothing half-written by the attempt.
    const files = storedFiles().length;
    const late = await ops(agent.cookie, 'POST', `${base}/photos/REAR`, await photo('#000'));
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('is completed');
    expect(storedFiles()).toHaveLength(files);
    expect((await ops(agent.cookie, 'DELETE', `${base}/damage/${markId}`)).statusCode).toBe(409);

    // Every write is audited against the trip; the timeline tells the inspection.
    const audit = (await listAudit(ctx.handle.db, { limit: 100, staffId: agent.id })).filter(
      (r) => r.action === 'inspections.record' && r.outcome === 'success' && r.target_id === t.platformId,
    );
    expect(audit.length).toBeGreaterThanOrEqual(INSPECTION_VIEWS.length + 5);
    const timeline = (await ops(agent.cookie, 'GET', `/trips/${t.platformId}/timeline`)).json();
    const titles = timeline.events
      .filter((e: { kind: string }) => e.kind === 'inspection')
      .map((e: { title: string }) => e.title);
    expect(titles).toEqual(['Check-out inspection started', 'Check-out inspection completed']);
  });

  it('lets the renter add photos within the window, from the trip page and the key page, merged into the same record', async () => {
    const t = await trip(-0.25);
    const url = `/api/v1/reservations/${t.platformId}/inspection`;
    const add = (who: SignedIn, body: Buffer, type = 'image/jpeg') =>
      ctx.app.inject({
        method: 'POST',
        url: `${url}/photos`,
        headers: { ...who.headers, 'content-type': type },
        payload: body,
      });

    const before = (await ctx.app.inject({ url, headers: renter.headers })).json();
    expect(before.open).toMatchObject({ stage: 'check_out' });
    expect(before.stages).toEqual([]);

    const added = await add(renter, await photo('#c90'));
    expect(added.statusCode).toBe(201);
    const [stage] = added.json().stages;
    expect(stage.stage).toBe('check_out');
    expect(stage.photos[0]).toMatchObject({ takenBy: 'renter', takenByName: 'Sam Rivera', view: null });
    expect(added.json().photosLeft).toBe(11);

    // Staff see it in the inspection, marked as the renter's, and add their own beside it.
    await ops(agent.cookie, 'POST', `/trips/${t.platformId}/inspections/check_out/photos/DASH`, await photo('#123'));
    const staffView = (await ops(agent.cookie, 'GET', `/trips/${t.platformId}/inspections/check_out`)).json()
      .inspection;
    expect(staffView.renterPhotos).toHaveLength(1);
    expect(staffView.startedBy).toBeNull();
    const renterView = (await ctx.app.inject({ url, headers: renter.headers })).json();
    expect(renterView.stages[0].photos.map((p: { takenBy: string }) => p.takenBy).sort()).toEqual(['renter', 'staff']);

    // From the key page, with the key's token.
    const token = randomBytes(24).toString('base64url');
    await ctx.handle.db
      .insertInto('digital_keys')
      .values({
        id: randomUUID(),
        reservation_id: t.id,
        token_hash: hashOf(token),
        status: 'active',
        valid_from: ctx.clock.now,
        valid_until: new Date(ctx.clock.now.getTime() + 48 * HOUR),
        created_at: ctx.clock.now,
        updated_at: ctx.clock.now,
        revoked_at: null,
      })
      .execute();
    const byKey = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/keys/${token}/inspection/photos`,
      headers: { 'content-type': 'image/png' },
      payload: await sharp({ create: { width: 300, height: 200, channels: 3, background: '#0a0' } })
        .png()
        .toBuffer(),
    });
    expect(byKey.statusCode).toBe(201);
    expect(byKey.json().stages[0].photos.filter((p: { takenBy: string }) => p.takenBy === 'renter')).toHaveLength(2);
    expect((await ctx.app.inject({ url: `/api/v1/keys/${'x'.repeat(30)}/inspection` })).statusCode).toBe(404);

    // Another renter's trip is a 404, and a bad file is refused, writing nothing.
    const rows = (await rowsOf(t.id)).photos.length;
    const theirs = await add(stranger, await photo('#c90'));
    expect(theirs.statusCode).toBe(404);
    expect((await ctx.app.inject({ url, headers: stranger.headers })).statusCode).toBe(404);
    const bad = await add(renter, Buffer.from('not a photo'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/not an image we can read/);
    expect((await rowsOf(t.id)).photos).toHaveLength(rows);
    expect((await ctx.app.inject({ url, headers: {} })).statusCode).toBe(401);
  });

  it('refuses the renter’s photos outside the window with a 409 saying when it opens', async () => {
    const t = await trip(30);
    const url = `/api/v1/reservations/${t.platformId}/inspection`;
    const view = (await ctx.app.inject({ url, headers: renter.headers })).json();
    expect(view.open).toBeNull();
    expect(view.next.stage).toBe('check_out');
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${url}/photos`,
      headers: { ...renter.headers, 'content-type': 'image/jpeg' },
      payload: await photo('#c90'),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^You can add photos at pickup from /);
    expect((await rowsOf(t.id)).inspections).toHaveLength(0);
  });

  it('compares the return inspection with the check-out one, view by view, with both sides’ damage', async () => {
    const t = await trip(-50, 'On Rent');
    const put = async (stage: string, view: string, colour: string) =>
      expect(
        (
          await ops(
            agent.cookie,
            'POST',
            `/trips/${t.platformId}/inspections/${stage}/photos/${view}`,
            await photo(colour),
          )
        ).statusCode,
      ).toBe(201);
    await put('check_out', 'REAR', '#111');
    await put('check_out', 'FRONT', '#111');
    await put('check_in', 'REAR', '#222');
    await ops(agent.cookie, 'POST', `/trips/${t.platformId}/inspections/check_in/damage`, {
      x: 0.5,
      y: 0.95,
      view: 'REAR',
      severity: 'moderate',
      note: 'Dent in the boot lid',
    });
    const res = await ops(viewer.cookie, 'GET', `/trips/${t.platformId}/inspections/compare`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.views.map((v: { view: string }) => v.view)).toEqual([...INSPECTION_VIEWS]);
    const rear = body.views.find((v: { view: string }) => v.view === 'REAR');
    expect(rear.checkOut.url).not.toBe(rear.checkIn.url);
    const front = body.views.find((v: { view: string }) => v.view === 'FRONT');
    expect(front.checkIn).toBeNull();
    expect(body.checkOut.damage).toEqual([]);
    expect(body.checkIn.damage[0]).toMatchObject({ view: 'REAR', note: 'Dent in the boot lid' });
  });
});
