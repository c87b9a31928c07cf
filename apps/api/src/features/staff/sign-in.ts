import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  LOGIN_CODE_MAX_ATTEMPTS,
  LOGIN_CODE_TTL_MINUTES,
  SMS_RESEND_COOLDOWN_SECONDS,
  SMS_SENDS_PER_PHONE_PER_HOUR,
} from '@ampere/domain/account';
import { PRODUCT_NAME } from '@ampere/domain/constants';
import type { z } from 'zod';
import type { OpsCodeResult, OpsVerifyResult, PasskeyResponseBody } from '@ampere/domain/contract/ops-staff';
import { OPS_BASE } from '@ampere/domain/contract/ops';
import type { SignInAuditAction, StaffRole } from '@ampere/domain/staff';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { recordAudit } from '../audit/repository.ts';
import {
  MESSAGES,
  allowedAgainAt,
  codeMatches,
  holdSmsSendLimits,
  holdVerifyLimit,
  maskPhone,
  newCode,
  parsePhone,
  storedHash,
} from '../auth/service.ts';
import type { SmsSender } from '../auth/sms-sender.ts';
import { markPasskeyVerified, revokeStaffSession } from './session-repository.ts';
import { type StaffSession, startStaffSession } from './sessions.ts';
import * as repo from './sign-in-repository.ts';

const MINUTE_MS = 60_000;
/** How long the browser has to answer a passkey challenge. */
const CHALLENGE_MINUTES = 5;

export const SIGN_IN_MESSAGES = {
  needCode: 'Your sign-in has ended. Enter your phone number to get a new code.',
  passkeyDone: 'You are already signed in with your passkey.',
  alreadyRegistered: 'You already have a passkey for the console: sign in with it.',
  noPasskey: 'You have no passkey yet: create one to finish signing in.',
  challengeGone:
    'That passkey request has expired or was already used. Start again with “Use my passkey” (or “Create a passkey”).',
  registerFailed:
    'Your passkey could not be created: your device’s answer did not check out. Try again, or use another device.',
  unknownPasskey:
    'That passkey is not one registered for your staff account. Use the passkey you created for the console on this device.',
  authFailed: 'Your passkey could not be checked. Try again, and confirm with your fingerprint, face or PIN.',
} as const;

/** A code texted to staff: says which app it opens, since the same phone may get a renter's code. */
export const staffCodeMessage = (code: string) =>
  `Your ${PRODUCT_NAME} operator console code is ${code}. It expires in ${LOGIN_CODE_TTL_MINUTES} minutes. Never share it.`;

export interface Caller {
  ip: string;
  log: FastifyBaseLogger;
  /** The address the browser opened (scheme, host and port): the passkey's origin when no public URL is set. */
  origin: string;
}

export interface StaffSignInDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: Pick<Config, 'smsAllowedCountries' | 'smsSendsPerIpPerHour' | 'publicUrl'>;
  sms: SmsSender;
}

/** The relying party a passkey is bound to: the public URL's host, else the address the browser opened. */
export function relyingParty(publicUrl: string | undefined, requestOrigin: string): { rpID: string; origin: string } {
  const url = new URL(publicUrl ?? requestOrigin);
  return { rpID: url.hostname, origin: url.origin };
}

/** Where the console is, for invitations: under the public URL when set. */
export const consoleUrl = (publicUrl: string | undefined, requestOrigin: string) =>
  `${publicUrl ?? requestOrigin}${OPS_BASE}`;

/** A uuid as the 16 bytes WebAuthn's user handle holds. */
const uuidBytes = (id: string) => new Uint8Array(Buffer.from(id.replace(/-/g, ''), 'hex'));

export function createStaffSignIn(deps: StaffSignInDeps) {
  const { db, clock, config, sms } = deps;

  async function audit(
    who: { id: string; role: StaffRole } | null,
    action: SignInAuditAction,
    caller: Caller,
    outcome: 'success' | 'failure',
    extra: { target?: { type: string; id: string }; reason?: string; after?: unknown; at?: Date } = {},
    into: Kysely<Database> = db,
  ) {
    await recordAudit(into, {
      at: extra.at ?? clock(),
      staff: who,
      action,
      target: extra.target ?? (who ? { type: 'staff', id: who.id } : undefined),
      after: extra.after,
      sourceAddress: caller.ip,
      outcome,
      reason: extra.reason,
    });
  }

  /**
   * Texts a code to an active staff member. Any other number gets the same answer, held to the same
   * limits, and nothing is sent: the call never tells who works here.
   */
  async function sendCode(phoneInput: string, caller: Caller): Promise<z.input<typeof OpsCodeResult>> {
    const phone = parsePhone(phoneInput, config.smsAllowedCountries);
    const now = clock();
    const code = newCode();
    const { staff, codeId, phoneEvents } = await transact(db, async (trx) => {
      const recent = await holdSmsSendLimits(trx, {
        ip: caller.ip,
        phone,
        phoneBucket: 'staff_sms_phone',
        now,
        ipLimit: config.smsSendsPerIpPerHour,
      });
      await repo.countRateEvents(trx, [
        { bucket: 'sms_ip', key: caller.ip, at: now },
        { bucket: 'staff_sms_phone', key: phone, at: now },
      ]);
      const member = await repo.activeStaffByPhone(trx, phone);
      const id = member
        ? await repo.replaceStaffCode(trx, {
            staffId: member.id,
            codeHash: storedHash(phone, code),
            now,
            expiresAt: new Date(now.getTime() + LOGIN_CODE_TTL_MINUTES * MINUTE_MS),
          })
        : null;
      return { staff: member, codeId: id, phoneEvents: [now, ...recent] };
    });
    if (staff && codeId) {
      try {
        await sms.send(phone, staffCodeMessage(code));
      } catch (err) {
        await repo
          .invalidateStaffCode(db, codeId, now)
          .catch((e: unknown) => caller.log.error({ err: e }, 'could not invalidate an unsent staff code'));
        const appError = err instanceof AppError ? err : new AppError('UNAVAILABLE', MESSAGES.sendFailed);
        caller.log.warn({ err: appError.cause ?? err, to: maskPhone(phone) }, 'staff sign-in code not sent');
        throw appError;
      }
    }
    const nextAt = allowedAgainAt(phoneEvents, SMS_SENDS_PER_PHONE_PER_HOUR);
    const waitSeconds = nextAt ? Math.ceil((nextAt.getTime() - now.getTime()) / 1000) : 0;
    return {
      phone,
      expiresInMinutes: LOGIN_CODE_TTL_MINUTES,
      resendAfterSeconds: Math.max(SMS_RESEND_COOLDOWN_SECONDS, waitSeconds),
    };
  }

  /**
   * Checks a staff member's code and, when right, starts their session with the passkey step still
   * to do. Every try is audited; a number that is not staff gets the wrong-code answer.
   */
  async function verifyCode(
    phoneInput: string,
    code: string,
    caller: Caller,
  ): Promise<{ token: string; result: z.input<typeof OpsVerifyResult> }> {
    const phone = parsePhone(phoneInput, config.smsAllowedCountries);
    const now = clock();
    await holdVerifyLimit(db, { ip: caller.ip, bucket: 'staff_verify_ip', now });

    const outcome = await transact(db, async (trx) => {
      const staff = await repo.activeStaffByPhone(trx, phone);
      if (!staff) return { kind: 'wrong', staff: null } as const;
      const row = await repo.lockLiveStaffCode(trx, staff.id);
      if (!row) return { kind: 'wrong', staff } as const;
      if (new Date(row.expires_at).getTime() <= now.getTime()) return { kind: 'expired', staff } as const;
      if (row.failed_attempts >= LOGIN_CODE_MAX_ATTEMPTS) return { kind: 'dead', staff } as const;
      if (!codeMatches(row.code_hash, phone, code)) {
        const attempts = await repo.recordFailedStaffAttempt(trx, row.id);
        return { kind: attempts >= LOGIN_CODE_MAX_ATTEMPTS ? 'last-wrong' : 'wrong', staff } as const;
      }
      await repo.consumeStaffCode(trx, row.id, now);
      await repo.markSignedIn(trx, staff.id, now);
      const passkeys = await repo.passkeysOf(trx, staff.id);
      const session = await startStaffSession(trx, { staffId: staff.id, now });
      await audit({ id: staff.id, role: staff.role }, 'staff.sign_in', caller, 'success', { at: now }, trx);
      return { kind: 'ok', staff, token: session.token, hasPasskey: passkeys.length > 0 } as const;
    });

    if (outcome.kind === 'ok')
      return {
        token: outcome.token,
        result: { next: outcome.hasPasskey ? 'use-passkey' : 'register-passkey', name: outcome.staff.name },
      };
    const error =
      outcome.kind === 'wrong'
        ? invalid(MESSAGES.wrongCode, 'code')
        : outcome.kind === 'last-wrong'
          ? invalid(MESSAGES.lastWrongCode, 'code')
          : outcome.kind === 'expired'
            ? invalid(MESSAGES.expired, 'code')
            : new AppError('RATE_LIMITED', MESSAGES.tooManyTries, 'code');
    await audit(
      outcome.staff ? { id: outcome.staff.id, role: outcome.staff.role } : null,
      'staff.sign_in',
      caller,
      'failure',
      {
        target: outcome.staff ? undefined : { type: 'phone', id: phone },
        reason: `${error.statusCode}: ${error.message}`,
        at: now,
      },
    );
    throw error;
  }

  /** The session past its code but not yet its passkey; anything else is refused in words to act on. */
  function pending(session: StaffSession | null): StaffSession {
    if (!session) throw new AppError('UNAUTHORIZED', SIGN_IN_MESSAGES.needCode);
    if (session.passkeyVerified) throw new AppError('CONFLICT', SIGN_IN_MESSAGES.passkeyDone);
    return session;
  }

  const who = (session: StaffSession) => ({ id: session.staff.id, role: session.staff.role });

  async function registrationOptions(sessionIn: StaffSession | null, caller: Caller) {
    const session = pending(sessionIn);
    const passkeys = await repo.passkeysOf(db, session.staff.id);
    if (passkeys.length > 0) throw new AppError('CONFLICT', SIGN_IN_MESSAGES.alreadyRegistered);
    const { rpID } = relyingParty(config.publicUrl, caller.origin);
    const options = await generateRegistrationOptions({
      rpName: `${PRODUCT_NAME} operator console`,
      rpID,
      userName: session.staff.phone,
      userDisplayName: session.staff.name,
      userID: uuidBytes(session.staff.id),
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      timeout: CHALLENGE_MINUTES * MINUTE_MS,
    });
    const now = clock();
    await repo.setPasskeyChallenge(
      db,
      session.sessionId,
      options.challenge,
      new Date(now.getTime() + CHALLENGE_MINUTES * MINUTE_MS),
    );
    return { options: options as unknown as Record<string, unknown> };
  }

  async function register(
    sessionIn: StaffSession | null,
    response: z.output<typeof PasskeyResponseBody>['response'],
    caller: Caller,
  ): Promise<{ ok: true }> {
    const session = pending(sessionIn);
    const now = clock();
    const fail = async (message: string, reason: string, status: 'INVALID_INPUT' | 'CONFLICT' = 'INVALID_INPUT') => {
      await audit(who(session), 'staff.passkey_register', caller, 'failure', { reason, at: now });
      return new AppError(status, message);
    };
    const challenge = await repo.takePasskeyChallenge(db, session.sessionId, now);
    if (!challenge) throw await fail(SIGN_IN_MESSAGES.challengeGone, 'no live challenge');
    const { rpID, origin } = relyingParty(config.publicUrl, caller.origin);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: response as unknown as Parameters<typeof verifyRegistrationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
      });
    } catch (err) {
      throw await fail(SIGN_IN_MESSAGES.registerFailed, err instanceof Error ? err.message.slice(0, 300) : 'refused');
    }
    if (!verified.verified) throw await fail(SIGN_IN_MESSAGES.registerFailed, 'not verified');
    const credential = verified.registrationInfo.credential;
    await transact(db, async (trx) => {
      const passkeys = await repo.passkeysOf(trx, session.staff.id);
      if (passkeys.length > 0) throw new AppError('CONFLICT', SIGN_IN_MESSAGES.alreadyRegistered);
      await repo.insertPasskey(trx, {
        credentialId: credential.id,
        staffId: session.staff.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
        now,
      });
      await markPasskeyVerified(trx, session.sessionId);
      await audit(
        who(session),
        'staff.passkey_register',
        caller,
        'success',
        { after: { credentialId: credential.id, deviceType: verified.registrationInfo.credentialDeviceType }, at: now },
        trx,
      );
    });
    return { ok: true };
  }

  async function authenticationOptions(sessionIn: StaffSession | null, caller: Caller) {
    const session = pending(sessionIn);
    const passkeys = await repo.passkeysOf(db, session.staff.id);
    if (passkeys.length === 0) throw new AppError('CONFLICT', SIGN_IN_MESSAGES.noPasskey);
    const { rpID } = relyingParty(config.publicUrl, caller.origin);
    const options = await generateAuthenticationOptions({
      rpID,
      allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: p.transports })),
      userVerification: 'required',
      timeout: CHALLENGE_MINUTES * MINUTE_MS,
    });
    const now = clock();
    await repo.setPasskeyChallenge(
      db,
      session.sessionId,
      options.challenge,
      new Date(now.getTime() + CHALLENGE_MINUTES * MINUTE_MS),
    );
    return { options: options as unknown as Record<string, unknown> };
  }

  async function authenticate(
    sessionIn: StaffSession | null,
    response: z.output<typeof PasskeyResponseBody>['response'],
    caller: Caller,
  ): Promise<{ ok: true }> {
    const session = pending(sessionIn);
    const now = clock();
    const fail = async (message: string, reason: string) => {
      await audit(who(session), 'staff.passkey_sign_in', caller, 'failure', { reason, at: now });
      return invalid(message);
    };
    const challenge = await repo.takePasskeyChallenge(db, session.sessionId, now);
    if (!challenge) throw await fail(SIGN_IN_MESSAGES.challengeGone, 'no live challenge');
    const passkey = (await repo.passkeysOf(db, session.staff.id)).find((p) => p.credential_id === response.id);
    if (!passkey) throw await fail(SIGN_IN_MESSAGES.unknownPasskey, 'a credential not registered to this staff member');
    const { rpID, origin } = relyingParty(config.publicUrl, caller.origin);
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response: response as unknown as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(passkey.public_key),
          counter: Number(passkey.counter),
          transports: passkey.transports as never,
        },
        requireUserVerification: true,
      });
    } catch (err) {
      throw await fail(SIGN_IN_MESSAGES.authFailed, err instanceof Error ? err.message.slice(0, 300) : 'refused');
    }
    if (!verified.verified) throw await fail(SIGN_IN_MESSAGES.authFailed, 'not verified');
    await transact(db, async (trx) => {
      await repo.passkeyUsed(trx, passkey.credential_id, verified.authenticationInfo.newCounter, now);
      await markPasskeyVerified(trx, session.sessionId);
      await audit(
        who(session),
        'staff.passkey_sign_in',
        caller,
        'success',
        { after: { credentialId: passkey.credential_id }, at: now },
        trx,
      );
    });
    return { ok: true };
  }

  async function signOut(session: StaffSession | null, caller: Caller): Promise<{ ok: true }> {
    if (!session) return { ok: true };
    const now = clock();
    await transact(db, async (trx) => {
      await revokeStaffSession(trx, session.sessionId, now);
      await audit(who(session), 'staff.sign_out', caller, 'success', { at: now }, trx);
    });
    return { ok: true };
  }

  return { sendCode, verifyCode, registrationOptions, register, authenticationOptions, authenticate, signOut };
}
