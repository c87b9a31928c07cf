import type { Kysely } from 'kysely';
import Pusher from 'pusher';
import {
  REALTIME_CLUSTER,
  type RealtimeClientConfig,
  type RealtimeEvent,
  isRealtimeEvent,
  userChannel,
} from '@ampere/domain/realtime';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import {
  MAX_NOTIFY_BYTES,
  NOTIFY_CHANNEL,
  type RealtimeLog,
  SOCKET_IDS_PER_NOTIFY,
  encodeDelivery,
  encodeSocketClosure,
} from './fan-out.ts';
import {
  notify,
  notifyAll,
  notifyRenter,
  recordSocketSession,
  stytchUserIdOf,
  takeSocketsOfSession,
} from './repository.ts';
import { channelAuth } from './signature.ts';

export type { RealtimeEvent } from '@ampere/domain/realtime';

/** Where published events go: Pusher's HTTP API, or Postgres NOTIFY to every API process's built-in endpoint. */
export interface RealtimeTransport {
  readonly kind: 'pusher' | 'builtin';
  /** The app key and secret subscriptions are signed with (Pusher's, or the built-in endpoint's). */
  readonly key: string;
  readonly secret: string;
  send(channel: string, event: RealtimeEvent, data: string): Promise<void>;
  /** Several events to one channel, in order: in one statement where the transport can (else one `send` each). */
  sendAll?(channel: string, events: readonly { event: RealtimeEvent; data: string }[]): Promise<void>;
  /**
   * `sendAll` to the channel of a renter whose channel id is not known yet, in the statement that
   * reads it (the built-in endpoint's). Sends nothing when the id is longer than `maxIdBytes`.
   * The id read (null when the renter has none), or undefined for an unknown renter.
   */
  sendAllToRenter?(
    userId: string,
    events: readonly { event: RealtimeEvent; data: string }[],
    maxIdBytes: number,
  ): Promise<{ stytchUserId: string | null; sent: boolean } | undefined>;
}

/** The built-in endpoint: NOTIFY reaches every API process on the database, each delivers to its own sockets. */
export function builtinTransport(db: Kysely<Database>, key: string, secret: string): RealtimeTransport {
  return {
    kind: 'builtin',
    key,
    secret,
    send: (channel, event, data) => notify(db, NOTIFY_CHANNEL, encodeDelivery({ channel, event, data })),
    sendAll: (channel, events) =>
      notifyAll(
        db,
        NOTIFY_CHANNEL,
        events.map(({ event, data }) => encodeDelivery({ channel, event, data })),
      ),
    sendAllToRenter: (userId, events, maxIdBytes) =>
      notifyRenter(db, NOTIFY_CHANNEL, userId, userChannel(''), events, maxIdBytes),
  };
}

/** Pusher Channels (or Soketi, with a host) through the official server SDK. */
export function pusherTransport(p: NonNullable<Config['pusher']>): RealtimeTransport {
  const client = p.host
    ? new Pusher({
        appId: p.appId,
        key: p.key,
        secret: p.secret,
        host: p.host,
        ...(p.port ? { port: String(p.port) } : {}),
        useTLS: p.useTLS,
        timeout: 5_000,
      })
    : new Pusher({
        appId: p.appId,
        key: p.key,
        secret: p.secret,
        cluster: p.cluster,
        useTLS: p.useTLS,
        timeout: 5_000,
      });
  return {
    kind: 'pusher',
    key: p.key,
    secret: p.secret,
    send: async (channel, event, data) => {
      // A string is sent as it is: the browser receives the same JSON as from the built-in endpoint.
      await client.trigger(channel, event, data);
    },
  };
}

/** Replaces data too large for a NOTIFY (or a Pusher event) with this; the page refetches anyway. */
const TRUNCATED = JSON.stringify({ truncated: true });

/**
 * The longest channel id a first event is sized for before the id is read (identity service ids
 * are far shorter): the database builds those deliveries, and sends none for a longer id.
 */
const CHANNEL_ID_BYTES = 200;

/** Whether the event's delivery to `channel` is small enough to send whole. */
const fits = (channel: string, { event, data }: { event: RealtimeEvent; data: string }) =>
  Buffer.byteLength(encodeDelivery({ channel, event, data })) <= MAX_NOTIFY_BYTES;

const consoleLog: RealtimeLog = {
  info: (obj, msg) => console.log(msg, obj),
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

/**
 * The renter's realtime channel (spec 4 and 7): `private-{stytch_user_id}`. Features publish to a
 * renter by user id; the browser subscribes with an auth string this service signs.
 */
export class Realtime {
  constructor(
    private readonly db: Kysely<Database>,
    readonly transport: RealtimeTransport,
    private readonly log: RealtimeLog = consoleLog,
  ) {}

  /** A renter's channel id never changes: read once per process (a round trip less per event, decision 064). */
  private readonly channelIds = new Map<string, string>();

  private async channelIdOf(userId: string): Promise<string | undefined> {
    const known = this.channelIds.get(userId);
    if (known !== undefined) return known;
    const id = await stytchUserIdOf(this.db, userId);
    if (id === undefined) return undefined;
    this.remember(userId, id);
    return id;
  }

  private remember(userId: string, id: string): void {
    if (this.channelIds.size >= 10_000) this.channelIds.clear();
    this.channelIds.set(userId, id);
  }

  get kind(): 'pusher' | 'builtin' {
    return this.transport.kind;
  }

  /**
   * Sends `event` with `data` (any JSON value) to every open page of the renter `userId`.
   * Best effort, like any push: it never throws for a delivery failure (an unknown renter, the
   * provider or database unreachable), it logs it, so a payment or an insurance update is never
   * failed by a missed refresh. Data over ~7 KB is replaced by `{ truncated: true }`: publish ids,
   * not documents, and let the page refetch.
   */
  async publish(userId: string, event: RealtimeEvent, data: unknown = {}): Promise<void> {
    await this.publishAll(userId, [{ event, data }]);
  }

  /**
   * `publish` for several events to one renter, in order: their channel is looked up once and, on
   * the built-in endpoint, the events go in one statement (a payment sync's notices, decision 064).
   * Best effort and size-limited like `publish`.
   */
  async publishAll(userId: string, events: readonly { event: RealtimeEvent; data?: unknown }[]): Promise<void> {
    for (const { event } of events)
      if (!isRealtimeEvent(event)) throw new Error(`Unknown realtime event: ${String(event)}`);
    if (events.length === 0) return;
    const names = events.map((e) => e.event).join(', ');
    try {
      // Each event's data as JSON, made once for sizing and sending.
      const whole = events.map(({ event, data }) => ({ event, data: JSON.stringify(data ?? {}) }));
      const known = this.channelIds.get(userId);
      let stytchUserId: string | null | undefined = known;
      const longest = userChannel('x'.repeat(CHANNEL_ID_BYTES));
      if (known === undefined && this.transport.sendAllToRenter && whole.every((e) => fits(longest, e))) {
        // A renter's first event in this process: the channel id is read by the statement that
        // sends, sized for the longest id expected (a longer one is sent below, once it is known).
        const found = await this.transport.sendAllToRenter(userId, whole, CHANNEL_ID_BYTES);
        stytchUserId = found?.stytchUserId;
        if (stytchUserId) this.remember(userId, stytchUserId);
        if (found?.sent) return;
      } else if (known === undefined) {
        stytchUserId = await this.channelIdOf(userId);
      }
      if (!stytchUserId) {
        this.log.warn({ userId, event: names }, 'realtime: no such renter; event dropped');
        return;
      }
      const channel = userChannel(stytchUserId);
      const sends = this.sized(userId, channel, whole);
      if (this.transport.sendAll) await this.transport.sendAll(channel, sends);
      else for (const s of sends) await this.transport.send(channel, s.event, s.data);
    } catch (err) {
      this.log.error({ err, userId, event: names }, 'realtime: event not delivered');
    }
  }

  /** Each event, its JSON data replaced by `{ truncated: true }` when its delivery to `channel` would be too large. */
  private sized(userId: string, channel: string, events: readonly { event: RealtimeEvent; data: string }[]) {
    return events.map((e) => {
      if (fits(channel, e)) return e;
      const { event, data } = e;
      this.log.warn(
        { userId, event, bytes: Buffer.byteLength(data) },
        'realtime: event data too large; sent as { truncated: true }',
      );
      return { event, data: TRUNCATED };
    });
  }

  /**
   * Signs a subscription for the signed-in renter: only to their own channel. Anything else is a
   * 403, so no renter can listen to another's payments.
   */
  async authorize(
    renter: { id: string; sessionId: string },
    socketId: string,
    channelName: string,
    now: Date,
  ): Promise<{ auth: string }> {
    const stytchUserId = await stytchUserIdOf(this.db, renter.id);
    if (!stytchUserId || channelName !== userChannel(stytchUserId)) {
      throw new AppError('FORBIDDEN', 'You can only receive updates on your own channel.', 'channel_name');
    }
    // Signing out closes the sockets this session signed (decision 039): the built-in endpoint's only.
    if (this.transport.kind === 'builtin') await recordSocketSession(this.db, socketId, renter.sessionId, now);
    return { auth: channelAuth(this.transport.key, this.transport.secret, socketId, channelName) };
  }

  /**
   * Closes, in every API process, the built-in endpoint's sockets whose subscriptions the session
   * signed (decision 039). Best effort like publish: logged, never thrown, so signing out always
   * works. With Pusher there is nothing to do here: its sockets cannot be closed by id.
   */
  async closeSessionSockets(sessionId: string): Promise<void> {
    if (this.transport.kind !== 'builtin') return;
    try {
      const ids = await takeSocketsOfSession(this.db, sessionId);
      for (let i = 0; i < ids.length; i += SOCKET_IDS_PER_NOTIFY) {
        await notify(
          this.db,
          NOTIFY_CHANNEL,
          encodeSocketClosure({ socketIds: ids.slice(i, i + SOCKET_IDS_PER_NOTIFY) }),
        );
      }
    } catch (err) {
      this.log.error({ err, sessionId }, 'realtime: the session’s sockets could not be closed');
    }
  }
}

/** Pusher (or Soketi) when configured, otherwise the built-in endpoint. */
export function createRealtime(config: Config, db: Kysely<Database>, log?: RealtimeLog): Realtime {
  const transport = config.pusher
    ? pusherTransport(config.pusher)
    : builtinTransport(db, config.realtime.key, config.realtime.secret);
  return new Realtime(db, transport, log);
}

/** What the browser needs to connect (GET /api/v1/config): never the secret. */
export function realtimeClientConfig(config: Config): RealtimeClientConfig {
  const p = config.pusher;
  if (!p)
    return {
      provider: 'builtin',
      key: config.realtime.key,
      cluster: REALTIME_CLUSTER,
      wsHost: null,
      wsPort: null,
      forceTLS: null,
    };
  return {
    provider: 'pusher',
    key: p.key,
    cluster: p.cluster,
    wsHost: p.host ?? null,
    wsPort: p.host ? (p.port ?? null) : null,
    forceTLS: p.useTLS,
  };
}
