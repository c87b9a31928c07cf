import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding } from '../src/http/compress-replies.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['gzip;q=0, deflate', 'deflate'],
    ['*', 'br'],
    ['*;q=0.2, br;q=0', 'gzip'],
    ['identity', null],
    ['', null],
    [undefined, null],
    ['br;q=0, gzip;q=0, deflate;q=0', null],
  ])('%s → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe.each(engines())('answers compressed as they are sent (%s)', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(async () => {
    await ctx.close();
  });

  // The models list: JSON of several kilobytes with the demo catalogue.
  const url = '/api/v1/vehicle_models';

  it('a client that takes Brotli, gzip or deflate reads the same JSON as one that takes none', async () => {
    const plain = await ctx.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(String(plain.headers.vary).toLowerCase()).toContain('accept-encoding');
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync, deflate: inflateSync } as const;
    for (const encoding of ['br', 'gzip', 'deflate'] as const) {
      const res = await ctx.app.inject({ url, headers: { 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toContain('application/json');
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decoders[encoding](res.rawPayload).toString()).toBe(plain.payload);
      if (res.headers['content-length'] !== undefined)
        expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
  });

  it('a small answer and a request asking for no compression are sent as they are', async () => {
    const small = await ctx.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    const refused = await ctx.app.inject({
      url,
      headers: { 'accept-encoding': 'br, gzip', 'x-no-compression': '1' },
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.payload)).toHaveProperty('models');
  });
});
