import type { Kysely } from 'kysely';
import pg from 'pg';
import { engineOf } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';

/** The Postgres notification channel every API process listens on. */
export const NOTIFY_CHANNEL = 'realtime';

/** Postgres refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_NOTIFY_BYTES = 7900;

/** One event for one Pusher channel, as it travels between API processes. */
export interface Delivery {
  channel: string;
  event: string;
  /** The event's data, already JSON: sent to the browser as it is. */
  data: string;
}

export interface RealtimeLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export function encodeDelivery(d: Delivery): string {
  return JSON.stringify({ c: d.channel, e: d.event, d: d.data });
}

export function decodeDelivery(payload: string): Delivery | null {
  try {
    const v = JSON.parse(payload) as { c?: unknown; e?: unknown; d?: unknown };
    return typeof v.c === 'string' && typeof v.e === 'string' && typeof v.d === 'string'
      ? { channel: v.c, event: v.e, data: v.d }
      : null;
  } catch {
    return null;
  }
}

/** Sockets to close in whichever process holds them (their session ended), as it travels between processes. */
export interface SocketClosure {
  socketIds: string[];
}

/** At most this many socket ids go in one notification (each well under 40 bytes). */
export const SOCKET_IDS_PER_NOTIFY = 150;

export function encodeSocketClosure(c: SocketClosure): string {
  return JSON.stringify({ close: c.socketIds });
}

export function decodeSocketClosure(payload: string): SocketClosure | null {
  try {
    const v = JSON.parse(payload) as { close?: unknown };
    return Array.isArray(v.close) && v.close.every((id) => typeof id === 'string')
      ? { socketIds: v.close as string[] }
      : null;
  } catch {
    return null;
  }
}

export interface Listener {
  /** Resolves once notifications are being received (again, after a dropped connection). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on the realtime channel of the database `db` was made for. On PostgreSQL a LISTEN
 * belongs to one session, so it gets its own client, outside the pool; on PGlite, the instance's
 * own listen().
 */
export function createListener(db: Kysely<Database>, onPayload: (payload: string) => void, log: RealtimeLog): Listener {
  const engine = engineOf(db);
  if (!engine)
    throw new Error('Realtime fan-out needs a database opened with connectDatabase (it LISTENs beside the pool).');
  if (engine.kind === 'postgres') return new PostgresListener(engine.connectionString, onPayload, log);
  const pglite = engine.pglite;
  let unlisten: (() => Promise<void>) | undefined;
  // Through Kysely's one PGlite connection, so the LISTEN never lands inside someone's open
  // transaction (where a rollback would undo it).
  const started = db.connection().execute(async () => {
    unlisten = await pglite.listen(NOTIFY_CHANNEL, onPayload);
  });
  started.catch((err: unknown) => log.error({ err }, 'realtime: could not LISTEN on the embedded database'));
  return {
    ready: () => started,
    close: async () => {
      await started.catch(() => {});
      if (unlisten && !pglite.closed) await unlisten();
    },
  };
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/** A dedicated session that LISTENs, and reconnects with backoff whenever it is lost. */
class PostgresListener implements Listener {
  private client: pg.Client | null = null;
  private closed = false;
  private failures = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private listening!: Promise<void>;
  private markListening!: () => void;

  constructor(
    private readonly connectionString: string,
    private readonly onPayload: (payload: string) => void,
    private readonly log: RealtimeLog,
  ) {
    this.resetReady();
    void this.connect();
  }

  ready(): Promise<void> {
    return this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private resetReady(): void {
    this.listening = new Promise((resolve) => (this.markListening = resolve));
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'ampere-realtime' });
    client.on('error', (err) => {
      this.log.warn({ err }, 'realtime: the LISTEN connection failed');
      this.drop(client);
    });
    client.on('end', () => this.drop(client));
    client.on('notification', (msg) => {
      if (msg.channel === NOTIFY_CHANNEL && msg.payload) this.onPayload(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (err) {
      this.log.error({ err, attempt: this.failures + 1 }, 'realtime: could not LISTEN on PostgreSQL; retrying');
      await client.end().catch(() => {});
      this.scheduleRetry();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    if (this.failures > 0) this.log.info({}, 'realtime: listening on PostgreSQL again');
    this.failures = 0;
    this.client = client;
    this.markListening();
  }

  /** The session is gone (server restart, failover, idle kill): events published until it is back are missed. */
  private drop(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.resetReady();
    client.end().catch(() => {});
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures) * (0.75 + Math.random() / 2);
    this.failures++;
    this.retry = setTimeout(() => void this.connect(), delay);
    this.retry.unref();
  }
}
