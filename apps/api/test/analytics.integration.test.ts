import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logConversions } from '../src/features/analytics/sink.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

/** A conversions collector on a free port of this machine, keeping what it was sent. */
async function collector(status = 204) {
  const received: unknown[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method, type: req.headers['content-type'], body: JSON.parse(body) as unknown });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/conversions`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(engines())('analytics destinations on %s', (engine) => {
  let ctx: TestContext;
  let sink: Awaited<ReturnType<typeof collector>>;
  beforeAll(async () => {
    sink = await collector();
    ctx = await createTestContext(engine, { env: { ANALYTICS_CONVERSIONS_URL: sink.url } });
  });
  afterAll(async () => {
    await ctx?.close();
    await sink?.close();
  });

  const post = (anonymousId: string, events: object[]) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/events', payload: { anonymous_id: anonymousId, events } });
  const stored = (anonymousId: string) =>
    ctx.handle.db
      .selectFrom('analytics_events')
      .select(['name', 'properties'])
      .where('anonymous_id', '=', anonymousId)
      .orderBy('id')
      .execute();

  it('payment_completed reaches both destinations in dollars beside its total in cents; other events stay in the store', async () => {
    const res = await post('visitor-pay', [
      { name: 'payment_button_clicked' },
      { name: 'payment_completed', properties: { platform_id: 'AB-12-CD', total: 29_170 } },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const converted = { platform_id: 'AB-12-CD', total: 29_170, value: 291.7, currency: 'USD' };
    expect(await stored('visitor-pay')).toEqual([
      { name: 'payment_button_clicked', properties: {} },
      { name: 'payment_completed', properties: converted },
    ]);
    await expect.poll(() => sink.received.length).toBe(1);
    expect(sink.received[0]).toEqual({
      method: 'POST',
      type: 'application/json',
      body: {
        events: [
          {
            name: 'payment_completed',
            user_id: null,
            anonymous_id: 'visitor-pay',
            properties: converted,
            occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        ],
      },
    });
  });

  it('a collector that cannot be reached never fails the renter: the event is still stored', async () => {
    const down = await collector();
    await down.close();
    const other = await createTestContext(engine, { seed: false, env: { ANALYTICS_CONVERSIONS_URL: down.url } });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        payload: { anonymous_id: 'visitor-down', events: [{ name: 'payment_completed', properties: { total: 500 } }] },
      });
      expect(res.statusCode, res.body).toBe(202);
      const rows = await other.handle.db
        .selectFrom('analytics_events')
        .select('properties')
        .where('anonymous_id', '=', 'visitor-down')
        .execute();
      expect(rows.map((r) => r.properties)).toEqual([{ total: 500, value: 5, currency: 'USD' }]);
    } finally {
      await other.close();
    }
  });
});

describe('without a collector', () => {
  it('each conversion is one log line with its value in dollars', () => {
    const lines: { obj: object; msg: string }[] = [];
    const log = { info: (obj: object, msg: string) => lines.push({ obj, msg }), warn: () => {} };
    logConversions(log).send([
      {
        name: 'payment_completed',
        userId: 'user-1',
        anonymousId: null,
        properties: { total: 1_005, value: 10.05, currency: 'USD' },
        occurredAt: new Date(0),
        receivedAt: new Date(0),
      },
    ]);
    expect(lines).toEqual([
      {
        obj: {
          conversion: 'payment_completed',
          userId: 'user-1',
          properties: { total: 1_005, value: 10.05, currency: 'USD' },
        },
        msg: 'conversion',
      },
    ]);
  });
});
