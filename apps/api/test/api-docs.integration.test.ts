import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, engines } from './harness.ts';

interface Operation {
  parameters: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
}

describe.each(engines())('API documentation (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
  });
  afterAll(async () => ctx.close());

  const openApi = async () => {
    const res = await ctx.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      openapi: string;
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
      security: Record<string, string[]>[];
    };
  };

  it('gives the booking route its request and response schemas', async () => {
    const doc = await openApi();
    expect(doc.openapi).toMatch(/^3\./);
    const book = doc.paths['/api/v1/reservations']!.post!;
    const body = book.requestBody!.content['application/json']!.schema;
    expect(Object.keys(body.properties ?? {})).toEqual(
      expect.arrayContaining(['vehicleVin', 'vehicleTimezone', 'pickupDate', 'pickupTime', 'returnDate', 'returnTime']),
    );
    expect(body.required).toEqual(expect.arrayContaining(['vehicleVin', 'pickupDate']));
    expect(Object.keys(book.responses['201']!.content!['application/json']!.schema.properties ?? {})).toEqual([
      'reservation',
    ]);
    const trip = doc.paths['/api/v1/reservations/{id}']!.get!;
    expect(trip.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
  });

  it('names the stytch_auth session header as the security scheme', async () => {
    const doc = await openApi();
    expect(doc.components.securitySchemes.stytch_auth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'stytch_auth',
    });
    expect(doc.security).toContainEqual({ stytch_auth: [] });
  });

  it('lists the Idempotency-Key header on the idempotent booking route only', async () => {
    const doc = await openApi();
    const headers = (op: Operation) => op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers(doc.paths['/api/v1/reservations']!.post!)).toEqual(['Idempotency-Key']);
    expect(headers(doc.paths['/api/v1/reservations']!.get!)).toEqual([]);
    expect(headers(doc.paths['/api/v1/reservations/addons']!.patch!)).toEqual([]);
  });

  it('serves a page of the same, with no script and nothing from another host', async () => {
    const res = await ctx.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // The app's policy applies unchanged: scripts only from this origin, and the page has none.
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.body).not.toMatch(/<script|<link|<iframe|<img/i);
    const addresses = [...res.body.matchAll(/(?:src|href|action)="([^"]*)"/g)].map((m) => m[1]!);
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((a) => !a.startsWith('/') || a.startsWith('//'))).toEqual([]);
    expect(res.body).not.toMatch(/url\(\s*['"]?(https?:)?\/\//);
    // What a reader comes for: the booking route with its body's fields, the session header, the retry header.
    expect(res.body).toContain('<code>/api/v1/reservations</code>');
    expect(res.body).toContain('<code>vehicleVin</code>');
    expect(res.body).toContain('stytch_auth');
    expect(res.body).toContain('<code>Idempotency-Key</code>');
  });
});
