import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_CSV_COLUMNS } from '@ampere/domain/fleet';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type Lot, auditOf, freshVin, newLot, offeredVins, staffCaller } from './ops-fleet-helpers.ts';

/** The fleet's CSV (decision 084): a dry run lists every row's problems; an import is all or nothing; the export imports again. */
describe.each(engines())('the fleet’s CSV import and export on %s', (engine) => {
  let ctx: TestContext;
  let a: Lot;
  let b: Lot;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    a = await newLot(ctx);
    b = await newLot(ctx);
  });
  afterAll(() => ctx?.close());

  const header = FLEET_CSV_COLUMNS.join(',');
  const row = (lot: Lot, vin = freshVin(), rate = '8900') => `${vin},2025,Model Y,white,${lot.lotName},${rate},120`;
  const send = (call: Awaited<ReturnType<typeof staffCaller>>['call'], csv: string, dryRun: boolean) =>
    call('POST', `/fleet/import?dryRun=${dryRun}`, csv, { 'content-type': 'text/csv' });
  const carsAt = async (lot: Lot) =>
    (await ctx.handle.db.selectFrom('vehicles').select('vin').where('location_id', '=', lot.locationId).execute()).map(
      (r) => r.vin,
    );

  it('dry-runs a file with two bad rows: each problem names its line and column, and nothing is written', async () => {
    const manager = await staffCaller(ctx, 'manager', [a.locationId]);
    const good = Array.from({ length: 18 }, () => row(a));
    const badVin = freshVin();
    const typo = `${badVin.slice(0, 8)}${badVin[8] === '0' ? '1' : '0'}${badVin.slice(9)}`;
    const csv = [
      header,
      ...good.slice(0, 5),
      row(a, typo),
      ...good.slice(5),
      `${freshVin()},2025,Model Y,white,${a.lotName},89.00,120`,
    ].join('\n');
    const before = await carsAt(a);
    const res = await send(manager.call, csv, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dryRun: true, rows: 20, imported: 0 });
    expect(res.json().errors).toEqual([
      { row: 7, column: 'vin', message: expect.stringContaining('check digit') },
      {
        row: 21,
        column: 'daily_rate_cents',
        message: 'The daily rate is in whole cents (e.g. 8900 for $89.00); got "89.00".',
      },
    ]);
    expect(await carsAt(a)).toEqual(before);

    // The real import of the same file is refused with the same list, and writes nothing.
    const refused = await send(manager.call, csv, false);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual(res.json().errors);
    expect(refused.json().message).toBe('Nothing was imported: 2 problems in the file. Fix them and import again.');
    expect(await carsAt(a)).toEqual(before);
    expect((await auditOf(ctx, manager.id))[0]).toMatchObject({ action: 'fleet.import', outcome: 'failure' });

    // Fixed, it imports every car in one go, with one audit record naming the count; search offers them.
    const fixed = [header, ...good, row(a), row(a)].join('\r\n');
    const done = await send(manager.call, fixed, false);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ dryRun: false, rows: 20, imported: 20, errors: [] });
    expect((await carsAt(a)).length).toBe(before.length + 20);
    const [record] = await auditOf(ctx, manager.id);
    expect(record).toMatchObject({ action: 'fleet.import', outcome: 'success', location_id: String(a.locationId) });
    expect(record!.after).toEqual({ imported: 20, byLocation: { [a.locationId]: 20 } });
    const offered = (await offeredVins(ctx, a, '2026-12-20', '2026-12-23')).map((c) => c.vin);
    expect(offered).toEqual(expect.arrayContaining(good.slice(0, 3).map((line) => line.split(',')[0]!)));
  });

  it('catches a VIN twice in the file or already in the fleet, a lot the manager does not work at, and a bad header', async () => {
    const manager = await staffCaller(ctx, 'manager', [a.locationId]);
    const twice = freshVin();
    const res = await send(
      manager.call,
      [header, row(a, twice), row(a, twice), row(a, a.vin), row(b)].join('\n'),
      true,
    );
    expect(res.json().errors).toEqual([
      { row: 3, column: 'vin', message: `VIN ${twice} is also on line 2; a car is listed once.` },
      { row: 4, column: 'vin', message: `The fleet already has a car with VIN ${a.vin}.` },
      { row: 5, column: 'location', message: expect.stringContaining(`no location "${b.lotName}" that you work at`) },
    ]);
    const headerless = await send(manager.call, 'vin,year,model\n1,2,3', true);
    expect(headerless.json().errors).toEqual([
      { row: 1, column: 'file', message: 'The header lacks the columns colour, location, daily_rate_cents.' },
    ]);
    const broken = await send(manager.call, `${header}\n"unclosed,2025`, true);
    expect(broken.json().errors[0]).toMatchObject({ column: 'file' });
    const json = await manager.call('POST', '/fleet/import?dryRun=true', { vin: 'x' });
    expect(json.statusCode).toBe(400);
  });

  it('is for managers: the front desk gets a 403, audited', async () => {
    const desk = await staffCaller(ctx, 'agent', [a.locationId]);
    expect((await send(desk.call, `${header}\n${row(a)}`, true)).statusCode).toBe(403);
    expect((await desk.call('GET', '/fleet/export')).statusCode).toBe(403);
    expect((await auditOf(ctx, desk.id)).map((r) => [r.action, r.outcome])).toEqual([
      ['fleet.export', 'failure'],
      ['fleet.import', 'failure'],
    ]);
  });

  it('exports the manager’s fleet in the import’s columns, and the export imports again', async () => {
    const manager = await staffCaller(ctx, 'manager', [b.locationId]);
    const res = await manager.call('GET', '/fleet/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.vin)).toEqual([b.vin]);
    expect(rows[0]).toEqual({
      vin: b.vin,
      year: '2024',
      model: expect.any(String),
      colour: 'white',
      location: b.lotName,
      daily_rate_cents: '9900',
      odometer: '12000',
      license_plate: '',
    });
    expect((await auditOf(ctx, manager.id))[0]).toMatchObject({ action: 'fleet.export', outcome: 'success' });
    // The same file with new VINs is a valid import (the VINs it has are the fleet's own).
    const again = res.body.replace(b.vin, freshVin());
    const check = await send(manager.call, again, true);
    expect(check.json()).toMatchObject({ rows: 1, errors: [] });
  });
});
