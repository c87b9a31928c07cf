import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '@ampere/domain/time';
import { listAudit } from '../src/features/audit/repository.ts';
import { mainPhotoUrl } from '../src/features/vehicles/service.ts';
import { tripOf } from './day-factories.ts';
import { carAtNewLot, optionId } from './factories.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { signInAs } from './sessions.ts';
import { signedInStaff } from './staff.ts';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
};

/** A tiny PNG that says it is 100,000 × 100,000 pixels: a decompression bomb's header. */
function bombPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const photo = (color: string, width = 2400, height = 1600) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

/** A car's own photos (decision 085): uploaded, resized, served and shown to renters in place of the drawing. */
describe.each(engines())('car photos in the console on %s', (engine) => {
  let ctx: TestContext;
  let dataDir: string;
  let lot: Awaited<ReturnType<typeof carAtNewLot>>;
  let other: Awaited<ReturnType<typeof carAtNewLot>>;
  let agent: { id: string; cookie: string };
  let manager: { id: string; cookie: string };
  let viewer: { id: string; cookie: string };
  let elsewhere: { id: string; cookie: string };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-photos-'));
    ctx = await createTestContext(engine, { env: { DATA_DIR: dataDir } });
    const db = ctx.handle.db;
    lot = await carAtNewLot(db, null);
    other = await carAtNewLot(db, null);
    const here = [String(lot.locationId)];
    const now = ctx.clock.now;
    agent = await signedInStaff(db, { role: 'agent', locationIds: here, now });
    manager = await signedInStaff(db, { role: 'manager', locationIds: here, now });
    viewer = await signedInStaff(db, { role: 'viewer', locationIds: here, now });
    elsewhere = await signedInStaff(db, { role: 'manager', locationIds: [String(other.locationId)], now });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (cookie: string, vin: string, view: string, body: Buffer, type = 'image/jpeg') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/ops/v1/cars/${vin}/photos/${view}`,
      headers: { cookie, 'content-type': type },
      payload: body,
    });
  const storedFiles = () =>
    fs.existsSync(path.join(dataDir, 'photos'))
      ? fs.readdirSync(path.join(dataDir, 'photos'), { recursive: true })
      : [];
  const photoRows = (vin: string) =>
    ctx.handle.db
      .selectFrom('car_photos as p')
      .innerJoin('vehicles as v', 'v.id', 'p.vehicle_id')
      .selectAll('p')
      .where('v.vin', '=', vin)
      .execute();
  const failuresOf = async (staffId: string, action: string) =>
    (await listAudit(ctx.handle.db, { limit: 50, staffId })).filter(
      (r) => r.action === action && r.outcome === 'failure',
    );

  it('refuses a viewer with a 403 and audits the attempt', async () => {
    const res = await upload(viewer.cookie, lot.vin, 'MONEYSHOT', await photo('#c00'));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('Viewer');
    expect(await failuresOf(viewer.id, 'photos.upload')).toHaveLength(1);
  });

  it('answers 404 for another city’s car, audited, and writes nothing', async () => {
    const res = await upload(elsewhere.cookie, lot.vin, 'MONEYSHOT', await photo('#c00'));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(`No car ${lot.vin} in your locations.`);
    const [attempt] = await failuresOf(elsewhere.id, 'photos.upload');
    expect(attempt).toMatchObject({ target_type: 'car', target_id: lot.vin });
    expect(await photoRows(lot.vin)).toHaveLength(0);
    expect(storedFiles()).toHaveLength(0);
  });

  it('refuses bad files with a clear 4xx and writes nothing', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#0c0' } })
      .gif()
      .toBuffer();
    const cases: [Buffer, string, number, RegExp][] = [
      [Buffer.from('hello, not a photo'), 'image/jpeg', 400, /not an image we can read/],
      [gif, 'image/gif', 400, /GIF format are not taken/],
      [Buffer.alloc(16 * 1024 * 1024, 1), 'image/jpeg', 422, /at most 15\.0 MB/],
      [bombPng(), 'image/png', 422, /100000 × 100000 pixels; a photo may have at most 50 megapixels/],
      [Buffer.alloc(0), 'image/jpeg', 400, /empty/],
      [Buffer.from('{}'), 'text/plain', 400, /Send the photo itself as the body/],
    ];
    for (const [body, type, status, message] of cases) {
      const res = await upload(agent.cookie, lot.vin, 'MONEYSHOT', body, type);
      expect(res.statusCode, type).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const nope = await upload(agent.cookie, lot.vin, 'SUNROOF', await photo('#c00'));
    expect(nope.statusCode).toBe(400);
    expect(nope.json().field).toBe('view');
    expect(await photoRows(lot.vin)).toHaveLength(0);
    expect(storedFiles()).toHaveLength(0);
    expect((await failuresOf(agent.id, 'photos.upload')).length).toBeGreaterThanOrEqual(cases.length);
  });

  it('uploads, resizes and serves a photo, shown to renters in place of the drawing, and replaces it without a stale copy', async () => {
    const res = await upload(agent.cookie, lot.vin, 'moneyshot', await photo('#c00'));
    expect(res.statusCode).toBe(201);
    const first = res.json();
    expect(first).toMatchObject({ vin: lot.vin, view: 'MONEYSHOT', width: 2400, height: 1600 });
    expect(first.imageUrl).toBe(`/media/cars/${lot.vin}/moneyshot-${first.version}-960.webp`);
    expect(first.srcset).toContain('1600w');

    const file = await ctx.app.inject({ url: first.imageUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(file.rawPayload).metadata()).width).toBe(960);

    // The renter's car page, its preload, and search show it in place of the drawing.
    const vehicle = (await ctx.app.inject({ url: `/api/v1/vehicles/${lot.vin}` })).json();
    expect(vehicle.images.find((i: { view: string }) => i.view === 'MONEYSHOT').image_url).toBe(first.imageUrl);
    expect(vehicle.images.find((i: { view: string }) => i.view === 'DASH').image_url).toMatch(/\.svg$/);
    expect(await mainPhotoUrl(ctx.handle.db, lot.vin)).toBe(first.imageUrl);
    const pickupDate = addDays(todayIn(ctx.clock.now, lot.timezone), 10);
    const search = async () => {
      const id = await optionId(ctx.handle.db, 'LOT', lot.lotName);
      const body = (
        await ctx.app.inject({
          url: `/api/v1/vehicles/search/${id}`,
          query: {
            pickupDate,
            returnDate: addDays(pickupDate, 2),
            pickupTime: '10:00',
            returnTime: '10:00',
            limit: '100',
          },
        })
      ).json();
      return body.items.find((i: { vin: string }) => i.vin === lot.vin);
    };
    expect((await search()).images[0].image_url).toBe(first.imageUrl);

    // The renter's trip page and receipt show it too.
    const who = await signInAs(ctx);
    const trip = await tripOf(
      ctx.handle.db,
      lot.vin,
      who.userId,
      '2026-12-20T16:00:00Z',
      '2026-12-22T16:00:00Z',
      'Pending',
    );
    for (const url of [`/api/v1/reservations/${trip.platformId}`, `/api/v1/reservations/${trip.platformId}/receipt`]) {
      const page = await ctx.app.inject({ url, headers: who.headers });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain(first.imageUrl);
    }

    const [done] = (await listAudit(ctx.handle.db, { limit: 10, staffId: agent.id })).filter(
      (r) => r.action === 'photos.upload' && r.outcome === 'success',
    );
    expect(done).toMatchObject({ target_type: 'car', target_id: lot.vin, location_id: String(lot.locationId) });
    expect(done!.before).toBeNull();
    expect(done!.after).toMatchObject({ version: first.version });

    // A new upload gets a new address; the old one is gone, so no cache can serve it as current.
    const second = (await upload(agent.cookie, lot.vin, 'MONEYSHOT', await photo('#00c', 1200, 900))).json();
    expect(second.version).not.toBe(first.version);
    expect((await ctx.app.inject({ url: first.imageUrl })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: second.imageUrl })).statusCode).toBe(200);
    expect((await search()).images[0].image_url).toBe(second.imageUrl);
    const [replaced] = (await listAudit(ctx.handle.db, { limit: 10, staffId: agent.id })).filter(
      (r) => r.action === 'photos.upload' && r.outcome === 'success',
    );
    expect(replaced!.before).toMatchObject({ version: first.version });
    expect(await photoRows(lot.vin)).toHaveLength(1);
  });

  it('lets a manager, not the front desk, remove a photo; the drawing shows again', async () => {
    const refused = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/ops/v1/cars/${lot.vin}/photos/MONEYSHOT`,
      headers: { cookie: agent.cookie },
    });
    expect(refused.statusCode).toBe(403);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/ops/v1/cars/${lot.vin}/photos/MONEYSHOT`,
      headers: { cookie: manager.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ vin: lot.vin, view: 'MONEYSHOT', removed: true });
    const vehicle = (await ctx.app.inject({ url: `/api/v1/vehicles/${lot.vin}` })).json();
    expect(vehicle.images.find((i: { view: string }) => i.view === 'MONEYSHOT').image_url).toMatch(/\.svg$/);
    expect(storedFiles().filter((f) => String(f).endsWith('.webp'))).toHaveLength(0);
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/ops/v1/cars/${lot.vin}/photos/MONEYSHOT`,
      headers: { cookie: manager.cookie },
    });
    expect(again.statusCode).toBe(404);
  });
});
