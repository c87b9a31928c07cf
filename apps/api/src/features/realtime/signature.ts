import { createHmac, timingSafeEqual } from 'node:crypto';

/** A Pusher socket id: two runs of digits around a dot ('123.456'). */
export const SOCKET_ID = /^\d{1,20}\.\d{1,20}$/;
/** Pusher's channel-name alphabet and its 164-character limit. */
export const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]{1,164}$/;

/**
 * Pusher's private-channel signature: the hex HMAC-SHA256 of "socket_id:channel_name" under the
 * app secret. A signature binds one channel to one connection, so it cannot be replayed on
 * another socket.
 */
export function channelSignature(secret: string, socketId: string, channelName: string): string {
  return createHmac('sha256', secret).update(`${socketId}:${channelName}`).digest('hex');
}

/** The `auth` value the browser hands to pusher:subscribe: '{key}:{signature}'. */
export function channelAuth(key: string, secret: string, socketId: string, channelName: string): string {
  return `${key}:${channelSignature(secret, socketId, channelName)}`;
}

/** Whether `auth` was signed by this app for this socket and channel (compared in constant time). */
export function isValidChannelAuth(
  key: string,
  secret: string,
  socketId: string,
  channelName: string,
  auth: unknown,
): boolean {
  if (typeof auth !== 'string') return false;
  const expected = Buffer.from(channelAuth(key, secret, socketId, channelName));
  const given = Buffer.from(auth);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
