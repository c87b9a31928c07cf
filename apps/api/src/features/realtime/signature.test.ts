import { describe, expect, it } from 'vitest';
import { channelAuth, channelSignature, isValidChannelAuth } from './signature.ts';

// Pusher's worked example ("Generating authentication and authorization strings"): key
// 278d425bdf160c739803, secret 7ad3773142a6692b25b8, socket 1234.1234, channel private-foobar.
const KEY = '278d425bdf160c739803';
const SECRET = '7ad3773142a6692b25b8';
const EXPECTED = '58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4';

describe('private-channel signatures (spec 7: private channel authorised through /api/v1/users/pusher/auth)', () => {
  it("matches Pusher's documented example", () => {
    expect(channelSignature(SECRET, '1234.1234', 'private-foobar')).toBe(EXPECTED);
    expect(channelAuth(KEY, SECRET, '1234.1234', 'private-foobar')).toBe(`${KEY}:${EXPECTED}`);
  });

  it('accepts only the auth string for that socket, that channel, that key and that secret', () => {
    const auth = `${KEY}:${EXPECTED}`;
    expect(isValidChannelAuth(KEY, SECRET, '1234.1234', 'private-foobar', auth)).toBe(true);
    expect(isValidChannelAuth(KEY, SECRET, '1234.1235', 'private-foobar', auth)).toBe(false);
    expect(isValidChannelAuth(KEY, SECRET, '1234.1234', 'private-foobaz', auth)).toBe(false);
    expect(isValidChannelAuth('other-key', SECRET, '1234.1234', 'private-foobar', auth)).toBe(false);
    expect(isValidChannelAuth(KEY, 'another-secret', '1234.1234', 'private-foobar', auth)).toBe(false);
    expect(isValidChannelAuth(KEY, SECRET, '1234.1234', 'private-foobar', auth.toUpperCase())).toBe(false);
    expect(isValidChannelAuth(KEY, SECRET, '1234.1234', 'private-foobar', undefined)).toBe(false);
    expect(isValidChannelAuth(KEY, SECRET, '1234.1234', 'private-foobar', `${auth}0`)).toBe(false);
  });
});
