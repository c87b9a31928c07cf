import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { REALTIME_AUTH_PATH, userChannel } from '@ampere/domain/realtime';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, connectPostgres } from '../src/db/connect.ts';
import { type RealtimeLog } from '../src/features/realtime/fan-out.ts';
import { type Realtime, createRealtime } from '../src/features/realtime/service.ts';
import { rawText } from '../src/features/realtime/socket-server.ts';
import { channelAuth } from '../src/features/realtime/signature.ts';
import { type TestContext, createTestContext, engines } from './harness.ts';
import { type SignedIn, signInAs } from './sessions.ts';

const ENV = { SEED_DEMO: 'false', WEB_DIST: '/nonexistent', SEARCH_MAX_STALENESS_MS: '0' };
const KEY = 'ampere-local';
const quiet: RealtimeLog = { info: () => {}, warn: () => {}, error: () => {} };

interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
}

/** A raw WebSocket client speaking the Pusher protocol, to check what pusher-js would not let us send. */
class RawClient {
  readonly frames: Frame[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      this.frames.push(JSON.parse(rawText(raw)) as Frame);
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async open(port: number, key = KEY, protocol = '7'): Promise<RawClient> {
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/app/${key}?protocol=${protocol}&client=js&version=8.6.0&flash=false`,
    );
    const client = new RawClient(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return client;
  }

  /** The next frame (in arrival order) matching `pred`, consumed. */
  async next(pred: (f: Frame) => boolean = () => true, timeoutMs = 5_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.frames.findIndex(pred);
      if (i >= 0) return this.frames.splice(i, 1)[0]!;
      if (this.closeCode !== null) throw new Error(`socket closed (${this.closeCode}) before the frame came`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => (clearTimeout(t), resolve()));
      });
    }
  }

  async established(): Promise<string> {
    const f = await this.next((x) => x.event === 'pusher:connection_established');
    return (JSON.parse(f.data as string) as { socket_id: string }).socket_id;
  }

  send(event: string, data: unknown): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  async closed(timeoutMs = 5_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.closeCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (this.closeCode === null) throw new Error('the socket stayed open');
    return this.closeCode;
  }

  close(): void {
    this.ws.terminate();
  }
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

async function stytchIdOf(ctx: TestContext, userId: string): Promise<string> {
  const row = await ctx.handle.db
    .selectFrom('users')
    .select('stytch_user_id')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.stytch_user_id;
}

async function authFor(
  port: number,
  renter: SignedIn,
  socketId: string,
  channel: string,
): Promise<{ status: number; body: { auth?: string; code?: string } }> {
  const res = await fetch(`http://127.0.0.1:${port}${REALTIME_AUTH_PATH}`, {
    method: 'POST',
    headers: { ...renter.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ socket_id: socketId, channel_name: channel }),
  });
  return { status: res.status, body: (await res.json()) as { auth?: string; code?: string } };
}

/** A raw client subscribed to the renter's own channel through the auth endpoint. */
async function subscribed(port: number, renter: SignedIn, channel: string, authPort = port): Promise<RawClient> {
  const client = await RawClient.open(port);
  const socketId = await client.established();
  const { status, body } = await authFor(authPort, renter, socketId, channel);
  expect(status).toBe(200);
  client.send('pusher:subscribe', { channel, auth: body.auth });
  await client.next((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === channel);
  return client;
}

describe.each(engines())('realtime channel on %s', (engine) => {
  let ctx: TestContext;
  let port: number;
  let publisher: Realtime;
  let alice: SignedIn;
  let bob: SignedIn;
  let aliceChannel: string;
  let bobChannel: string;
  const open: { close(): void }[] = [];

  beforeAll(async () => {
    ctx = await createTestContext(engine, { seed: false });
    port = await listen(ctx.app);
    // Any Realtime on the same database publishes to every process's subscribers.
    publisher = createRealtime(loadConfig(ENV), ctx.handle.db, quiet);
    alice = await signInAs(ctx);
    bob = await signInAs(ctx);
    aliceChannel = userChannel(await stytchIdOf(ctx, alice.userId));
    bobChannel = userChannel(await stytchIdOf(ctx, bob.userId));
  });

  afterAll(async () => {
    for (const c of open) c.close();
    await ctx?.close();
  });

  it('tells the web app how to connect: the built-in endpoint on the page’s own host, cluster us2', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.json().realtime).toEqual({
      provider: 'builtin',
      key: KEY,
      cluster: 'us2',
      wsHost: null,
      wsPort: null,
      forceTLS: null,
    });
  });

  it('signs a subscription only for the signed-in renter’s own channel', async () => {
    const own = await authFor(port, alice, '1234.5678', aliceChannel);
    expect(own.status).toBe(200);
    expect(own.body.auth).toMatch(new RegExp(`^${KEY}:[0-9a-f]{64}$`));

    const other = await authFor(port, alice, '1234.5678', bobChannel);
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('FORBIDDEN');

    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: REALTIME_AUTH_PATH,
      payload: { socket_id: '1234.5678', channel_name: aliceChannel },
    });
    expect(anonymous.statusCode).toBe(401);

    const badSocket = await ctx.app.inject({
      method: 'POST',
      url: REALTIME_AUTH_PATH,
      headers: alice.headers,
      payload: { socket_id: 'abc', channel_name: aliceChannel },
    });
    expect(badSocket.statusCode).toBe(400);
    expect(badSocket.json().field).toBe('socket_id');
  });

  it('takes the form body pusher-js posts by default', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: REALTIME_AUTH_PATH,
      headers: { ...alice.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ socket_id: '1234.5678', channel_name: aliceChannel }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().auth).toBe((await authFor(port, alice, '1234.5678', aliceChannel)).body.auth);
  });

  it('delivers a published event to pusher-js subscribed through the auth endpoint, and only to that renter', async () => {
    const pusher = new Pusher(KEY, {
      cluster: 'us2',
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
      channelAuthorization: {
        endpoint: `http://127.0.0.1:${port}${REALTIME_AUTH_PATH}`,
        transport: 'ajax',
        headers: alice.headers,
      },
    });
    open.push({ close: () => pusher.disconnect() });
    const channel = pusher.subscribe(aliceChannel);
    await new Promise<void>((resolve, reject) => {
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', (err: unknown) =>
        reject(new Error(`subscription refused: ${JSON.stringify(err)}`)),
      );
    });
    const received: { event: string; data: unknown }[] = [];
    channel.bind_global((event: string, data: unknown) => {
      if (!event.startsWith('pusher')) received.push({ event, data });
    });

    await publisher.publish(bob.userId, 'REFRESH', { for: 'bob' });
    await publisher.publish(alice.userId, 'payment-intent-succeeded', { reservation_id: 'r-1', amount: 12_345 });
    await until(() => received.length > 0);
    // Events on one channel arrive in order, so Bob's, published first, would be here by now.
    expect(received).toEqual([{ event: 'payment-intent-succeeded', data: { reservation_id: 'r-1', amount: 12_345 } }]);
    pusher.disconnect();
  });

  it('speaks the protocol: connection_established with a socket id, ping/pong, events as {event, channel, data: JSON string}', async () => {
    const client = await RawClient.open(port);
    open.push(client);
    const established = await client.next();
    expect(established.event).toBe('pusher:connection_established');
    const info = JSON.parse(established.data as string) as { socket_id: string; activity_timeout: number };
    expect(info.socket_id).toMatch(/^\d+\.\d+$/);
    expect(info.activity_timeout).toBeGreaterThan(0);

    client.send('pusher:ping', {});
    expect((await client.next()).event).toBe('pusher:pong');

    const { body } = await authFor(port, alice, info.socket_id, aliceChannel);
    client.send('pusher:subscribe', { channel: aliceChannel, auth: body.auth });
    expect(await client.next()).toEqual({
      event: 'pusher_internal:subscription_succeeded',
      channel: aliceChannel,
      data: '{}',
    });

    await publisher.publish(alice.userId, 'insurance-completed', { policy: 'P-1' });
    expect(await client.next()).toEqual({
      event: 'insurance-completed',
      channel: aliceChannel,
      data: '{"policy":"P-1"}',
    });

    // Unsubscribed from Alice's channel and subscribed to Bob's: Alice's next event does not come,
    // Bob's, published after it, does (one channel's events arrive in the order published).
    client.send('pusher:unsubscribe', { channel: aliceChannel });
    client.send('pusher:subscribe', {
      channel: bobChannel,
      auth: (await authFor(port, bob, info.socket_id, bobChannel)).body.auth,
    });
    await client.next((f) => f.event === 'pusher_internal:subscription_succeeded');
    await publisher.publish(alice.userId, 'insurance-failed', {});
    await publisher.publish(bob.userId, 'insurance-exited', {});
    expect(await client.next()).toEqual({ event: 'insurance-exited', channel: bobChannel, data: '{}' });
    client.close();
  });

  it('a payment sync’s notices go in order in one statement, the channel read by it when new to the process', async () => {
    const client = await subscribed(port, alice, aliceChannel);
    open.push(client);
    const notices = [
      { event: 'payment-intent-succeeded' as const, data: { kind: 'CHARGE', note: 'quote " and \\ backslash, ü' } },
      { event: 'REFRESH' as const, data: { kind: 'DEPOSIT' } },
    ];
    // A Realtime new to the renter reads the channel id in the statement that sends; then from memory.
    const fresh = createRealtime(loadConfig(ENV), ctx.handle.db, quiet);
    for (let round = 0; round < 2; round++) {
      await fresh.publishAll(alice.userId, notices);
      for (const n of notices)
        expect(await client.next()).toEqual({ event: n.event, channel: aliceChannel, data: JSON.stringify(n.data) });
    }
    await expect(fresh.publishAll('00000000-0000-4000-8000-000000000000', notices)).resolves.toBeUndefined();
    client.close();
  });

  it('refuses a forged or borrowed signature, another renter’s channel and public channels', async () => {
    const client = await RawClient.open(port);
    open.push(client);
    const socketId = await client.established();
    const refusal = (channel: string) =>
      client.next((f) => f.event === 'pusher:subscription_error' && f.channel === channel);

    // Signed with a secret that is not the server's.
    client.send('pusher:subscribe', {
      channel: bobChannel,
      auth: channelAuth(KEY, 'a-guessed-secret', socketId, bobChannel),
    });
    expect((await refusal(bobChannel)).data).toMatchObject({ type: 'AuthError', status: 401 });

    // Alice's genuine auth, for her channel, replayed on Bob's.
    const { body } = await authFor(port, alice, socketId, aliceChannel);
    client.send('pusher:subscribe', { channel: bobChannel, auth: body.auth });
    expect((await refusal(bobChannel)).data).toMatchObject({ status: 401 });

    // A genuine auth for another connection.
    const borrowed = await authFor(port, bob, '1.2', bobChannel);
    client.send('pusher:subscribe', { channel: bobChannel, auth: borrowed.body.auth });
    expect((await refusal(bobChannel)).data).toMatchObject({ status: 401 });

    client.send('pusher:subscribe', { channel: 'announcements' });
    expect((await refusal('announcements')).data).toMatchObject({ status: 403 });

    // None of that let Bob's events in: the socket gets only what its one real subscription carries.
    client.send('pusher:subscribe', { channel: aliceChannel, auth: body.auth });
    await client.next((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === aliceChannel);
    await publisher.publish(bob.userId, 'REFRESH', { for: 'bob' });
    await publisher.publish(alice.userId, 'REFRESH', { for: 'alice' });
    expect(await client.next()).toEqual({ event: 'REFRESH', channel: aliceChannel, data: '{"for":"alice"}' });
    client.close();
  });

  it('closes a connection to an unknown app key with 4001, and an unsupported protocol with 4007', async () => {
    const wrongKey = await RawClient.open(port, 'somebody-else');
    expect((await wrongKey.next()).data).toMatchObject({ code: 4001 });
    expect(await wrongKey.closed()).toBe(4001);
    const oldProtocol = await RawClient.open(port, KEY, '3');
    expect(await oldProtocol.closed()).toBe(4007);
  });

  it('sends large data as { truncated: true }, within what a NOTIFY carries', async () => {
    const client = await subscribed(port, alice, aliceChannel);
    open.push(client);
    await publisher.publish(alice.userId, 'payment-intent-failed', { message: 'x'.repeat(20_000) });
    expect(await client.next()).toEqual({
      event: 'payment-intent-failed',
      channel: aliceChannel,
      data: '{"truncated":true}',
    });
    client.close();
  });

  it('drops an event for an unknown renter without failing the caller', async () => {
    await expect(publisher.publish('00000000-0000-4000-8000-000000000000', 'REFRESH', {})).resolves.toBeUndefined();
  });

  it('signing out closes the sockets that session signed, with 4009 (no reconnecting), and leaves others open', async () => {
    const leaving = await signInAs(ctx);
    const leavingChannel = userChannel(await stytchIdOf(ctx, leaving.userId));
    const gone = await subscribed(port, leaving, leavingChannel);
    const kept = await subscribed(port, bob, bobChannel);
    open.push(gone, kept);
    const out = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: leaving.headers });
    expect(out.statusCode).toBe(200);
    expect(await gone.closed()).toBe(4009);
    expect(gone.frames).toContainEqual({
      event: 'pusher:error',
      data: { code: 4009, message: 'Signed out: this connection is closed' },
    });
    // The signed-out session cannot sign a new subscription.
    const again = await RawClient.open(port);
    open.push(again);
    expect((await authFor(port, leaving, await again.established(), leavingChannel)).status).toBe(401);
    await publisher.publish(bob.userId, 'REFRESH', { still: 'here' });
    expect(await kept.next((f) => f.event === 'REFRESH')).toEqual({
      event: 'REFRESH',
      channel: bobChannel,
      data: '{"still":"here"}',
    });
  });
});

describe.runIf(engines().includes('postgres'))('realtime across API processes on PostgreSQL', () => {
  let ctx: TestContext;
  let second: { app: FastifyInstance; handle: DatabaseHandle; realtime: Realtime };
  let portA: number;
  let portB: number;
  let renter: SignedIn;
  let channel: string;
  const open: RawClient[] = [];

  beforeAll(async () => {
    // Instance A: the harness's app, built as main.ts builds it. Instance B: another app with its
    // own pool, its own LISTEN session and its own sockets, on the same database.
    ctx = await createTestContext('postgres', { seed: false });
    portA = await listen(ctx.app);
    const admin = await ctx.handle.db
      .selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name'))
      .executeTakeFirstOrThrow();
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${admin.name}`;
    const handle = await connectPostgres(url.toString(), 4);
    const config = loadConfig(ENV);
    const realtime = createRealtime(config, handle.db, quiet);
    const app = await buildApp({ config, db: handle.db, clock: () => ctx.clock.now, realtime });
    second = { app, handle, realtime };
    portB = await listen(app);
    renter = await signInAs(ctx);
    channel = userChannel(await stytchIdOf(ctx, renter.userId));
  });

  afterAll(async () => {
    for (const c of open) c.close();
    await second?.app.close();
    await second?.handle.close();
    await ctx?.close();
  });

  it('a publish on instance B reaches a subscriber connected to instance A, and the other way round', async () => {
    const onA = await subscribed(portA, renter, channel);
    const onB = await subscribed(portB, renter, channel);
    open.push(onA, onB);
    await second.realtime.publish(renter.userId, 'payment-intent-succeeded', { from: 'B' });
    expect(await onA.next()).toEqual({ event: 'payment-intent-succeeded', channel, data: '{"from":"B"}' });
    expect(await onB.next()).toEqual({ event: 'payment-intent-succeeded', channel, data: '{"from":"B"}' });

    const viaA = createRealtime(loadConfig(ENV), ctx.handle.db, quiet);
    await viaA.publish(renter.userId, 'payment-intent-canceled', { from: 'A' });
    expect(await onB.next()).toEqual({ event: 'payment-intent-canceled', channel, data: '{"from":"A"}' });
    expect(await onA.next()).toEqual({ event: 'payment-intent-canceled', channel, data: '{"from":"A"}' });
  });

  it('listens again after the database drops the LISTEN session', async () => {
    const onB = await subscribed(portB, renter, channel);
    open.push(onB);
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const dbName = new URL(
        second.handle.engine.kind === 'postgres' ? second.handle.engine.connectionString : '',
      ).pathname.slice(1);
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'ampere-realtime'",
        [dbName],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      // Back when every session it ended is listening again (not just any two: another realtime
      // made in this file may be among them, and this test needs B's). Idle, not only showing the
      // LISTEN: a LISTEN still running has not committed, and a notice sent before it commits is
      // not delivered to it.
      await until(async () => {
        const r = await admin.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'ampere-realtime' and query ilike 'listen%' and state = 'idle'",
          [dbName],
        );
        return r.rows[0]!.n >= killed.rowCount!;
      }, 15_000);
    } finally {
      await admin.end();
    }
    await second.realtime.publish(renter.userId, 'REFRESH', { again: true });
    expect(await onB.next((f) => f.event === 'REFRESH')).toEqual({ event: 'REFRESH', channel, data: '{"again":true}' });
  });

  it('asks its sockets to reconnect elsewhere (4200) when an instance shuts down', async () => {
    const handle = await connectPostgres((second.handle.engine as { connectionString: string }).connectionString, 2);
    const config = loadConfig(ENV);
    const app = await buildApp({ config, db: handle.db, clock: () => ctx.clock.now });
    try {
      const client = await subscribed(await listen(app), renter, channel);
      await app.close();
      expect(await client.closed()).toBe(4200);
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('signing out on instance A closes that session’s socket on instance B (4009), and no other session’s', async () => {
    const leaving = await signInAs(ctx);
    const staying = await signInAs(ctx);
    const leavingChannel = userChannel(await stytchIdOf(ctx, leaving.userId));
    const stayingChannel = userChannel(await stytchIdOf(ctx, staying.userId));
    // Both sockets are on B (signed by B: each test process has its own realtime secret).
    const gone = await subscribed(portB, leaving, leavingChannel);
    const kept = await subscribed(portB, staying, stayingChannel);
    open.push(gone, kept);
    const out = await fetch(`http://127.0.0.1:${portA}/api/v1/auth/logout`, {
      method: 'POST',
      headers: leaving.headers,
    });
    expect(out.status).toBe(200);
    expect(await gone.closed()).toBe(4009);
    await second.realtime.publish(staying.userId, 'REFRESH', { still: 'here' });
    expect(await kept.next((f) => f.event === 'REFRESH')).toEqual({
      event: 'REFRESH',
      channel: stayingChannel,
      data: '{"still":"here"}',
    });
  });
});

describe('realtime secret', () => {
  it('is the same in every process sharing DATABASE_URL, so one may sign what another checks', () => {
    const env = { ...ENV, DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/ampere' };
    expect(loadConfig(env).realtime.secret).toBe(loadConfig(env).realtime.secret);
    expect(loadConfig(env).realtime.secret).not.toBe(
      loadConfig({ ...env, DATABASE_URL: 'postgres://app:other@db.internal:5432/ampere' }).realtime.secret,
    );
    expect(loadConfig({ ...env, REALTIME_SECRET: 'x'.repeat(32) }).realtime.secret).toBe('x'.repeat(32));
  });

  it('refuses a short REALTIME_SECRET and half a Pusher configuration, naming the variables', () => {
    expect(() => loadConfig({ ...ENV, REALTIME_SECRET: 'short' })).toThrow(/REALTIME_SECRET/);
    expect(() => loadConfig({ ...ENV, PUSHER_APP_ID: '123', PUSHER_KEY: 'abc' })).toThrow(
      /PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET/,
    );
    expect(() => loadConfig({ ...ENV, PUSHER_HOST: 'soketi.internal' })).toThrow(/PUSHER_HOST/);
  });
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
