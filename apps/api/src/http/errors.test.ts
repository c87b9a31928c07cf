import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { busy, installErrorHandler } from './errors.ts';

function appThrowing(err: unknown) {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.get('/', async () => {
    throw err;
  });
  return app;
}

const pgError = (code: string) => Object.assign(new Error(`database says ${code}`), { code });

describe('error handler', () => {
  it('answers a busy database 503 with Retry-After', async () => {
    const res = await appThrowing(busy()).inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json().code).toBe('UNAVAILABLE');
  });

  it('answers a deadlock that escaped transact() 503 with Retry-After, not 500', async () => {
    const res = await appThrowing(pgError('40P01')).inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
  });

  it.each(['22P05', '22003', '22008', '22021'])('answers the database refusing a value (%s) 400', async (code) => {
    const res = await appThrowing(pgError(code)).inject({ url: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_INPUT' });
    expect(res.json().message).not.toContain(code);
  });

  it('still answers anything else 500 without details', async () => {
    const res = await appThrowing(new Error('secret detail')).inject({ url: '/' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret detail');
  });
});
