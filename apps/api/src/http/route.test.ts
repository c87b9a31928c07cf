import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route } from './route.ts';

describe('route responses', () => {
  // A receipt row's add-on carries its id and amount, while the receipt's contract lists only its
  // type: that one extra field inside a nullable object made every receipt with an extra a 500.
  it('writes only the listed fields of a nullable object that carries more, instead of failing', async () => {
    const app = Fastify();
    route(app, {
      method: 'GET',
      url: '/row',
      tag: 'test',
      summary: 'a row with an optional nested object',
      response: z.object({
        items: z.array(z.object({ category: z.string(), addon: z.object({ type: z.string() }).nullable() })),
      }),
      handler: async () => ({
        items: [
          { category: 'Addon', addon: { id: 'a1', type: 'UNLIMITED_MILES', amount: 1500 }, secret: 'x' },
          { category: 'Rack', addon: null },
        ],
      }),
    });
    const res = await app.inject({ method: 'GET', url: '/row' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      items: [
        { category: 'Addon', addon: { type: 'UNLIMITED_MILES' } },
        { category: 'Rack', addon: null },
      ],
    });
    await app.close();
  });
});
