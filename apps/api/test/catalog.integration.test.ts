import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, engines } from './harness.ts';

describe.each(engines())('catalog API on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(() => ctx?.close());

  it('autocomplete finds Nashville case-insensitively', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/search/autocomplete?query=NASH' });
    expect(res.statusCode).toBe(200);
    const names = res.json().options.map((o: { query: string }) => o.query);
    expect(names[0]).toBe('Nashville, TN');
    expect(names.length).toBeLessThanOrEqual(5);
  });

  it('vehicle search returns free cars nearest first with the all-in price', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/vehicles/search/1?pickupDate=2026-12-01&returnDate=2026-12-08&pickupTime=10:00&returnTime=10:00' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.length).toBeGreaterThan(0);
    const distances = body.items.map((i: { distance_miles: number }) => i.distance_miles);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const item of body.items) expect(item.price.total).toBe(item.rack_rate * 7 + item.price.tax);
  });

  it('a return before the pickup is refused naming the field', async () => {
    const res = await ctx.app.inject({ url: '/api/v1/vehicles/search/1?pickupDate=2026-12-09&returnDate=2026-12-08' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ field: 'returnDate' });
  });
});
