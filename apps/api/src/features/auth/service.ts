import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import {
  LOGIN_CODE_MAX_ATTEMPTS,
  LOGIN_CODE_TTL_MINUTES,
  SESSION_TTL_MINUTES,
  SMS_RESEND_COOLDOWN_SECONDS,
  SMS_SENDS_PER_PHONE_PER_HOUR,
} from '@ampere/domain/account';
import { normalizePhone } from '@ampere/domain/phone';
import type { SessionResult } from '@ampere/domain/contract/account';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { type Renter, hashToken } from '../../http/session.ts';
import { recordServerEvent } from '../analytics/service.ts';
import type { AnalyticsSink } from '../analytics/sink.ts';
import { findUserByPhone } from '../users/repository.ts';
import { toUser } from '../users/service.ts';
import * as repo from './repository.ts';
import { type SmsSender, loginCodeMessage } from './sms-sender.ts';
import { transact } from '../../db/transact.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** A loose ceiling on code guesses from one address, across all phones: 5 tries per code already bound one phone. */
export const VERIFY_ATTEMPTS_PER_IP_PER_HOUR = 100;
/** Counters and dead codes older than this are deleted. */
const KEEP_MS = 24 * HOUR_MS;
/** How often one process sweeps them, at most. */
const PRUNE_EVERY_MS = 10 * MINUTE_MS;

export const MESSAGES = {
  wrongCode: 'That code is not right. Check the text message and try again.',
  lastWrongCode: `That code is not right, and it has now been tried ${LOGIN_CODE_MAX_ATTEMPTS} times. Ask for a new code.`,
  tooManyTries: `That code was tried too many times (${LOGIN_CODE_MAX_ATTEMPTS} wrong tries). Ask for a new code.`,
  expired: `That code has expired (codes last ${LOGIN_CODE_TTL_MINUTES} minutes). Ask for a new code.`,
  cooldown: (seconds: number) =>
    `A code was just sent to this number. You can ask for another in ${seconds === 1 ? '1 second' : `${seconds} seconds`}.`,
  phoneLimit: (wait: string) => `Too many codes have been sent to this number. Try again in ${wait}.`,
  ipLimit: (wait: string) => `Too many codes have been asked for from your network. Try again in ${wait}.`,
  verifyIpLimit: (wait: string) => `Too many sign-in attempts from your network. Try again in ${wait}.`,
  sendFailed: 'We couldn’t send the text message just now. Please try again in a few minutes.',
} as const;

export interface AuthDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  sms: SmsSender;
  analytics: AnalyticsSink;
  /** Runs once a session has ended: closes the realtime sockets it opened, in every process (decision 039). */
  afterSignOut?: (sessionId: string) => Promise<void>;
}

/** What the service needs to know about the caller. */
export interface Caller {
  ip: string;
  userAgent: string | null;
  log: FastifyBaseLogger;
}

/**
 * Holds code guesses from one address to their hourly limit, across all phones: a 429 saying how
 * long to wait. Checked and counted in one statement (a refused try is not counted), loose and
 * unlocked on purpose: a few extra guesses at the edge of the hour change nothing. Staff's sign-in
 * holds it here; a renter's code check holds the same limit, in a bucket of its own, in the
 * statement that locks the code (verifyCode).
 */
export async function holdVerifyLimit(
  db: Kysely<Database>,
  opts: { ip: string; bucket: string; now: Date },
): Promise<void> {
  const { ip, bucket, now } = opts;
  const refused = verifyLimitError(
    await repo.countUnlessOver(
      db,
      { bucket, key: ip, at: now },
      new Date(now.getTime() - HOUR_MS),
      VERIFY_ATTEMPTS_PER_IP_PER_HOUR,
    ),
    now,
  );
  if (refused) throw refused;
}

/** Given an address's newest code guesses in the hour (newest first), the 429 when it is over its limit, else null. */
function verifyLimitError(newestFirst: Date[], now: Date): AppError | null {
  const again = allowedAgainAt(newestFirst, VERIFY_ATTEMPTS_PER_IP_PER_HOUR);
  return again
    ? new AppError('RATE_LIMITED', MESSAGES.verifyIpLimit(minutesText(again.getTime() - now.getTime())))
    : null;
}

/**
 * Holds a text-message send to its limits, inside the sending transaction: the address's hourly
 * limit, the resend cooldown (the page's countdown, held here too: a script cannot skip it) and the
 * number's hourly limit, each a 429 saying how long to wait. Locks the number only, and reads both
 * windows in one round trip. The number's limits are exact (they keep a script from flooding one
 * phone); the address's is loose, like the guesses' limit: sends from one address at the same
 * instant may pass it by how many arrive together, and in exchange every renter behind one address
 * (a carrier's or an office's) is not queued behind the others' sends (decision 102). Answers the
 * number's sends in the last hour, newest first. Staff's codes are held here, with the number's own
 * bucket; a renter's send holds the same limits with the statement that stores the code (sendCode).
 */
export async function holdSmsSendLimits(
  trx: Transaction<Database>,
  opts: { ip: string; phone: string; phoneBucket: string; now: Date; ipLimit: number },
): Promise<Date[]> {
  const { ip, phone, phoneBucket, now, ipLimit } = opts;
  await repo.lockKeys(trx, [`${phoneBucket}:${phone}`]);
  const since = new Date(now.getTime() - HOUR_MS);
  const [ipEvents, recent] = await repo.recentRateEventsOf(trx, since, [
    { bucket: 'sms_ip', key: ip, limit: ipLimit },
    { bucket: phoneBucket, key: phone, limit: SMS_SENDS_PER_PHONE_PER_HOUR },
  ]);
  checkSmsSendLimits(ipEvents!, recent!, now, ipLimit);
  return recent!;
}

/**
 * The checks of holdSmsSendLimits, given the address's sends and the number's in the last hour,
 * newest first: the first limit they have reached is thrown as its 429.
 */
function checkSmsSendLimits(ipEvents: Date[], recent: Date[], now: Date, ipLimit: number): void {
  const ipAgain = allowedAgainAt(ipEvents, ipLimit);
  if (ipAgain) throw new AppError('RATE_LIMITED', MESSAGES.ipLimit(minutesText(ipAgain.getTime() - now.getTime())));
  const cooldownLeftMs = recent[0] ? recent[0].getTime() + SMS_RESEND_COOLDOWN_SECONDS * 1000 - now.getTime() : 0;
  if (cooldownLeftMs > 0) {
    const seconds = Math.ceil(cooldownLeftMs / 1000);
    throw new AppError('RATE_LIMITED', MESSAGES.cooldown(seconds), 'phone', { retryAfterSeconds: seconds });
  }
  const phoneAgain = allowedAgainAt(recent, SMS_SENDS_PER_PHONE_PER_HOUR);
  if (phoneAgain)
    throw new AppError('RATE_LIMITED', MESSAGES.phoneLimit(minutesText(phoneAgain.getTime() - now.getTime())), 'phone');
}

/** The renter's number in E.164, or a 400 on `phone` saying what is wrong (a bad number, a country we don't text). */
export function parsePhone(input: string, allowedCountries: readonly string[]): string {
  const check = normalizePhone(input, allowedCountries);
  if (!check.ok) throw invalid(check.message, 'phone');
  return check.e164;
}

/** '+16155550123' → '…0123': enough to trace a failure in the log without writing the number down. */
export const maskPhone = (phone: string) => `…${phone.slice(-4)}`;

export const minutesText = (ms: number) => {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/**
 * Given the newest events in the window (newest first) and the limit, when the next one is
 * allowed: once the limit-th newest has left the hour. null when one is allowed now.
 */
export function allowedAgainAt(newestFirst: Date[], limit: number): Date | null {
  const blocking = newestFirst[limit - 1];
  return blocking ? new Date(blocking.getTime() + HOUR_MS) : null;
}

/**
 * Codes are stored only as an HMAC of phone and code under a random per-code salt, as
 * 'salt:hex'. The salt means a copy of the table cannot be matched against one precomputed list
 * of the million possible codes; the ten-minute life and five tries do the rest.
 */
function hashCode(phone: string, code: string, salt: string): Buffer {
  return createHmac('sha256', salt).update(`${phone}:${code}`).digest();
}

export function storedHash(phone: string, code: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `${salt}:${hashCode(phone, code, salt).toString('hex')}`;
}

export function codeMatches(stored: string, phone: string, code: string): boolean {
  const [salt, hex] = stored.split(':');
  if (!salt || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = hashCode(phone, code, salt);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Six digits, uniformly from a cryptographic source. */
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export function createAuthService(deps: AuthDeps) {
  const { db, clock, config, sms, analytics } = deps;
  let lastPrunedAt = -Infinity;

  /** Opportunistic clean-up, at most every ten minutes per process; a failure only costs disk. */
  async function maybePrune(now: Date, log: FastifyBaseLogger): Promise<void> {
    if (now.getTime() - lastPrunedAt < PRUNE_EVERY_MS) return;
    lastPrunedAt = now.getTime();
    try {
      await repo.pruneBefore(db, new Date(now.getTime() - KEEP_MS));
    } catch (err) {
      log.warn({ err }, 'could not prune old rate counters and sign-in codes');
    }
  }

  /**
   * Texts a new code. Known and unknown numbers get the same answer (no account is looked up
   * here), so the call cannot be used to learn who has an account.
   */
  async function sendCode(phoneInput: string, caller: Caller) {
    const phone = parsePhone(phoneInput, config.smsAllowedCountries);
    const now = clock();
    const code = newCode();

    const { codeId, phoneEvents } = await transact(db, async (trx) => {
      // The limits holdSmsSendLimits holds, read by the statement that stores the code (after the
      // number's lock, as there): a send over one throws below, and the rollback takes back what
      // that statement wrote.
      await repo.lockKeys(trx, [`sms_phone:${phone}`]);
      // A send that then fails still counts: the provider may have delivered it anyway, and the
      // counters are what keep a script from using us to flood a number or run up the SMS bill.
      const stored = await repo.replaceLoginCode(
        trx,
        [
          { bucket: 'sms_ip', key: caller.ip, at: now },
          { bucket: 'sms_phone', key: phone, at: now },
        ],
        {
          phone,
          code_hash: storedHash(phone, code),
          created_at: now,
          expires_at: new Date(now.getTime() + LOGIN_CODE_TTL_MINUTES * MINUTE_MS),
        },
        {
          since: new Date(now.getTime() - HOUR_MS),
          keys: [
            { bucket: 'sms_ip', key: caller.ip, limit: config.smsSendsPerIpPerHour },
            { bucket: 'sms_phone', key: phone, limit: SMS_SENDS_PER_PHONE_PER_HOUR },
          ],
        },
      );
      const [ipEvents, recent] = stored.recent;
      checkSmsSendLimits(ipEvents!, recent!, now, config.smsSendsPerIpPerHour);
      return { codeId: stored.id, phoneEvents: [now, ...recent!] };
    });

    try {
      await sms.send(phone, loginCodeMessage(code));
    } catch (err) {
      // The renter never saw this code (or cannot be sure they did): it must not stay usable.
      await repo
        .invalidateCode(db, codeId, now)
        .catch((e: unknown) => caller.log.error({ err: e }, 'could not invalidate an unsent code'));
      const appError = err instanceof AppError ? err : new AppError('UNAVAILABLE', MESSAGES.sendFailed);
      caller.log.warn({ err: appError.cause ?? err, to: maskPhone(phone), sender: sms.kind }, 'sign-in code not sent');
      throw appError;
    }

    await recordServerEvent(analytics, caller.log, {
      name: 'auth_started',
      userId: null,
      properties: { method: 'sms' },
      now,
    });
    await maybePrune(now, caller.log);
    const nextAt = allowedAgainAt(phoneEvents, SMS_SENDS_PER_PHONE_PER_HOUR);
    const waitSeconds = nextAt ? Math.ceil((nextAt.getTime() - now.getTime()) / 1000) : 0;
    return {
      phone,
      expires_in_minutes: LOGIN_CODE_TTL_MINUTES,
      resend_after_seconds: Math.max(SMS_RESEND_COOLDOWN_SECONDS, waitSeconds),
    };
  }

  /** Checks a code and, when right, signs the renter in (creating the account at the first sign-in). */
  async function verifyCode(phoneInput: string, code: string, caller: Caller): Promise<SessionResult> {
    const phone = parsePhone(phoneInput, config.smsAllowedCountries);
    const now = clock();

    // The outcome is returned rather than thrown so that a wrong try's count is committed.
    const outcome = await transact(db, async (trx) => {
      // The address's limit, as holdVerifyLimit holds it, counted in the statement that locks the
      // code: a refused try is not counted and leaves the code alone. The count commits with the
      // check (a try the server fails on is not counted; one retried after a deadlock counts once).
      const { recent, code: row } = await repo.countTryAndLockLiveCode(trx, {
        event: { bucket: 'verify_ip', key: caller.ip, at: now },
        since: new Date(now.getTime() - HOUR_MS),
        limit: VERIFY_ATTEMPTS_PER_IP_PER_HOUR,
        phone,
      });
      const refused = verifyLimitError(recent, now);
      if (refused) return { kind: 'refused', error: refused } as const;
      // No code ever sent, or it was used or replaced: the same answer as a wrong code.
      if (!row) return { kind: 'wrong' } as const;
      if (new Date(row.expires_at).getTime() <= now.getTime()) return { kind: 'expired' } as const;
      if (row.failed_attempts >= LOGIN_CODE_MAX_ATTEMPTS) return { kind: 'dead' } as const;
      if (!codeMatches(row.code_hash, phone, code)) {
        const attempts = await repo.recordFailedAttempt(trx, row.id);
        return { kind: attempts >= LOGIN_CODE_MAX_ATTEMPTS ? 'last-wrong' : 'wrong' } as const;
      }
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + SESSION_TTL_MINUTES * MINUTE_MS);
      const session = {
        token_hash: hashToken(token),
        created_at: now,
        expires_at: expiresAt,
        user_agent: caller.userAgent?.slice(0, 512) ?? null,
        ip: caller.ip,
      };
      const signedIn = await repo.signInByPhone(trx, {
        codeId: row.id,
        phone,
        stytchUserId: `user-live-${randomUUID()}`,
        now,
        session,
      });
      if (signedIn) {
        const { created, ...user } = signedIn;
        return { kind: 'ok', user: toUser(user), created, token, expiresAt } as const;
      }
      // Another transaction created the renter while that statement ran; it has committed, so this one sees them.
      const existing = await findUserByPhone(trx, phone);
      if (!existing) throw new Error('a renter was neither found nor created for a verified phone');
      await repo.insertSession(trx, { ...session, user_id: existing.id });
      return { kind: 'ok', user: toUser(existing), created: false, token, expiresAt } as const;
    });

    switch (outcome.kind) {
      case 'refused':
        throw outcome.error;
      case 'wrong':
        throw invalid(MESSAGES.wrongCode, 'code');
      case 'last-wrong':
        throw invalid(MESSAGES.lastWrongCode, 'code');
      case 'dead':
        throw new AppError('RATE_LIMITED', MESSAGES.tooManyTries, 'code');
      case 'expired':
        throw invalid(MESSAGES.expired, 'code');
      case 'ok':
        await recordServerEvent(analytics, caller.log, {
          name: 'auth_completed',
          userId: outcome.user.id,
          properties: { method: 'sms', new_user: outcome.created },
          now,
        });
        return {
          session_token: outcome.token,
          session_expires_at: outcome.expiresAt.toISOString(),
          user: outcome.user,
        };
    }
  }

  /** Ends the session the request came with; its token stops working at once. */
  async function logout(renter: Renter): Promise<{ ok: true }> {
    await repo.revokeSession(db, renter.sessionId, clock());
    await deps.afterSignOut?.(renter.sessionId);
    return { ok: true };
  }

  /** The console sender's messages to one number, newest first. */
  async function devOutbox(phoneInput: string) {
    const phone = parsePhone(phoneInput, config.smsAllowedCountries);
    const rows = await repo.listOutbox(db, phone, 20);
    return {
      messages: rows.map((r) => ({ to: r.to_phone, body: r.body, sent_at: new Date(r.sent_at).toISOString() })),
    };
  }

  return { sendCode, verifyCode, logout, devOutbox };
}
