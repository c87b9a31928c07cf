import { randomInt } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { Delivery, RealtimeLog } from './fan-out.ts';
import { CHANNEL_NAME, isValidChannelAuth } from './signature.ts';

/** Seconds of silence after which either side pings (Pusher's own figure). */
const ACTIVITY_TIMEOUT_S = 120;
/** How long a pinged client has to answer before it is dropped. */
const PONG_TIMEOUT_MS = 30_000;
const MAX_CHANNELS_PER_SOCKET = 10;
/** How long a closing server waits for clients to answer its close frame before cutting them off. */
const CLOSE_GRACE_MS = 1_000;

interface Client {
  ws: WebSocket;
  socketId: string;
  channels: Set<string>;
  lastSeen: number;
  pingedAt: number | null;
}

export interface SocketServerOptions {
  key: string;
  secret: string;
  log: RealtimeLog;
  /** Resolves once this process receives the events published anywhere (the fan-out LISTEN). */
  ready(): Promise<void>;
}

/**
 * The built-in realtime endpoint: a WebSocket at /app/{key} speaking the Pusher Channels protocol
 * (version 7), so pusher-js connects to it exactly as it would to Pusher or Soketi. It serves
 * private channels only: a subscription must carry an auth string signed for this socket by
 * POST /api/v1/users/pusher/auth. Client events are not accepted.
 */
export class PusherProtocolServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 10 * 1024, perMessageDeflate: false });
  private readonly clients = new Set<Client>();
  private readonly channels = new Map<string, Set<Client>>();
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(private readonly opts: SocketServerOptions) {
    this.heartbeat = setInterval(() => this.checkActivity(), 10_000);
    this.heartbeat.unref();
  }

  /** Takes over WebSocket upgrades on the API's own HTTP server. */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
  }

  /** Sends an event to this process's subscribers of its channel. */
  deliver(d: Delivery): void {
    const subscribers = this.channels.get(d.channel);
    if (!subscribers) return;
    const frame = JSON.stringify({ event: d.event, channel: d.channel, data: d.data });
    for (const c of subscribers) if (c.ws.readyState === WebSocket.OPEN) c.ws.send(frame);
  }

  /**
   * Closes this process's sockets among `socketIds` (their session signed out), with 4009, which
   * tells pusher-js not to reconnect: a new subscription needs a new signature, so a session.
   */
  closeSockets(socketIds: readonly string[]): void {
    const ids = new Set(socketIds);
    for (const c of this.clients) {
      if (!ids.has(c.socketId)) continue;
      refuse(c.ws, 4009, 'Signed out: this connection is closed');
      this.forget(c);
    }
  }

  /** How many sockets are connected to this process (for tests and diagnostics). */
  get connectionCount(): number {
    return this.clients.size;
  }

  /**
   * Asks every client to reconnect (code 4200: pusher-js reconnects at once, to another process
   * behind the balancer), then cuts off any that do not close in time.
   */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const open = [...this.clients].map((c) => c.ws);
    for (const ws of open) ws.close(4200, 'Server restarting');
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (open.some((ws) => ws.readyState !== WebSocket.CLOSED) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    for (const ws of open) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/app\/([^/]+)$/.exec(url.pathname);
    if (!match) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const key = decodeURIComponent(match[1]!);
    const protocol = Number(url.searchParams.get('protocol'));
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      // As Pusher does: the socket opens, then an error names the reason and closes it with a
      // code in the 4000-4099 range, which tells pusher-js not to retry.
      if (key !== this.opts.key) return refuse(ws, 4001, `App key ${key} does not exist on this server`);
      if (!(protocol >= 5 && protocol <= 7)) return refuse(ws, 4007, 'Unsupported protocol version: use protocol 7');
      this.onConnection(ws);
    });
  }

  private onConnection(ws: WebSocket): void {
    const client: Client = {
      ws,
      socketId: `${randomInt(1, 2 ** 40)}.${randomInt(1, 2 ** 40)}`,
      channels: new Set(),
      lastSeen: Date.now(),
      pingedAt: null,
    };
    this.clients.add(client);
    ws.on('message', (raw, isBinary) => this.onMessage(client, raw, isBinary));
    ws.on('close', () => this.forget(client));
    ws.on('error', () => this.forget(client));
    send(
      ws,
      'pusher:connection_established',
      JSON.stringify({ socket_id: client.socketId, activity_timeout: ACTIVITY_TIMEOUT_S }),
    );
  }

  private onMessage(client: Client, raw: RawData, isBinary: boolean): void {
    client.lastSeen = Date.now();
    client.pingedAt = null;
    let message: { event?: unknown; data?: unknown; channel?: unknown };
    try {
      message = JSON.parse(isBinary ? '' : rawText(raw)) as typeof message;
    } catch {
      return sendError(client.ws, null, 'Messages must be JSON');
    }
    // pusher-js sends data as an object; some clients send it as a JSON string.
    let data = message.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        // Left as the string it is.
      }
    }
    const body = (typeof data === 'object' && data !== null ? data : {}) as { channel?: unknown; auth?: unknown };
    switch (message.event) {
      case 'pusher:ping':
        return send(client.ws, 'pusher:pong', '{}');
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return void this.subscribe(client, body.channel, body.auth);
      case 'pusher:unsubscribe':
        if (typeof body.channel === 'string') this.unsubscribe(client, body.channel);
        return;
      default:
        if (typeof message.event === 'string' && message.event.startsWith('client-'))
          return sendError(client.ws, null, 'Client events are not enabled on this server');
        return sendError(client.ws, null, `Unknown event: ${String(message.event)}`);
    }
  }

  private async subscribe(client: Client, channel: unknown, auth: unknown): Promise<void> {
    if (typeof channel !== 'string' || !CHANNEL_NAME.test(channel))
      return sendError(client.ws, null, 'Invalid channel name');
    if (client.channels.has(channel)) {
      // Already subscribed: confirm again; still being confirmed: that confirmation will do.
      if (this.channels.get(channel)?.has(client))
        send(client.ws, 'pusher_internal:subscription_succeeded', '{}', channel);
      return;
    }
    if (!channel.startsWith('private-') || channel.startsWith('private-encrypted-')) {
      return refuseSubscription(client.ws, channel, 403, 'Only private channels are served here');
    }
    if (!isValidChannelAuth(this.opts.key, this.opts.secret, client.socketId, channel, auth)) {
      this.opts.log.warn({ channel, socketId: client.socketId }, 'realtime: subscription refused (bad signature)');
      return refuseSubscription(
        client.ws,
        channel,
        401,
        'Invalid signature: the auth does not match this connection and channel',
      );
    }
    if (client.channels.size >= MAX_CHANNELS_PER_SOCKET)
      return refuseSubscription(client.ws, channel, 429, 'Too many channels on one connection');
    client.channels.add(channel);
    try {
      // Confirmed only once this process is hearing published events, so nothing sent after the
      // confirmation is missed.
      await this.opts.ready();
    } catch (err) {
      client.channels.delete(channel);
      this.opts.log.error({ err }, 'realtime: fan-out is not available');
      return refuseSubscription(client.ws, channel, 503, 'Realtime updates are unavailable right now');
    }
    if (!this.clients.has(client) || !client.channels.has(channel)) return;
    let subscribers = this.channels.get(channel);
    if (!subscribers) this.channels.set(channel, (subscribers = new Set()));
    subscribers.add(client);
    send(client.ws, 'pusher_internal:subscription_succeeded', '{}', channel);
  }

  private unsubscribe(client: Client, channel: string): void {
    client.channels.delete(channel);
    const subscribers = this.channels.get(channel);
    subscribers?.delete(client);
    if (subscribers?.size === 0) this.channels.delete(channel);
  }

  private forget(client: Client): void {
    if (!this.clients.delete(client)) return;
    for (const channel of [...client.channels]) this.unsubscribe(client, channel);
  }

  /** Pings a client silent for the activity timeout; drops one that has not answered a ping. */
  private checkActivity(): void {
    const now = Date.now();
    for (const c of this.clients) {
      if (c.pingedAt !== null && now - c.pingedAt > PONG_TIMEOUT_MS) {
        c.ws.terminate();
        this.forget(c);
      } else if (c.pingedAt === null && now - c.lastSeen > ACTIVITY_TIMEOUT_S * 1000) {
        c.pingedAt = now;
        send(c.ws, 'pusher:ping', '{}');
      }
    }
  }
}

function send(ws: WebSocket, event: string, data: string, channel?: string): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(channel ? { event, channel, data } : { event, data }));
}

function sendError(ws: WebSocket, code: number | null, message: string): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ event: 'pusher:error', data: { code, message } }));
}

/** As Soketi answers a refused subscription; pusher-js hands it to the channel's 'pusher:subscription_error'. */
function refuseSubscription(ws: WebSocket, channel: string, status: number, error: string): void {
  if (ws.readyState === WebSocket.OPEN)
    ws.send(
      JSON.stringify({ event: 'pusher:subscription_error', channel, data: { type: 'AuthError', error, status } }),
    );
}

function refuse(ws: WebSocket, code: number, message: string): void {
  sendError(ws, code, message);
  ws.close(code, message);
}

/** A text frame's payload as a string, whichever of the library's buffer shapes it arrived in. */
export function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (raw instanceof ArrayBuffer ? Buffer.from(raw) : raw).toString('utf8');
}
