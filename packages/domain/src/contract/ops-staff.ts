import { z } from './zod.ts';
import { StaffRoleSchema } from './ops.ts';

/**
 * Staff sign-in and the staff list (issue 29, decision 081): a code texted to a staff member's
 * phone, then a passkey (registered at the first sign-in, required after it), and the owner's
 * invitations, roles and deactivations.
 */

const phoneField = z
  .string({ error: 'phone is required' })
  .trim()
  .min(1, 'is required')
  .max(32, 'must be at most 32 characters');

export const OpsCodeBody = z.object({ phone: phoneField }).strict();
/** The same answer for any number, staff or not: the console never says who works here. */
export const OpsCodeResult = z.object({
  /** The number as understood (E.164). */
  phone: z.string(),
  expiresInMinutes: z.number().int(),
  resendAfterSeconds: z.number().int(),
});

export const OpsVerifyBody = z
  .object({
    phone: phoneField,
    code: z
      .string({ error: 'code is required' })
      .trim()
      .regex(/^\d{6}$/, 'must be the 6 digits from the text message'),
  })
  .strict();
/** After the code: register a passkey (the first sign-in) or use the one registered. */
export const OpsVerifyResult = z.object({
  next: z.enum(['register-passkey', 'use-passkey']),
  name: z.string(),
});
export type OpsVerifyResult = z.infer<typeof OpsVerifyResult>;

/** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON). */
export const PasskeyOptions = z.object({ options: z.record(z.string(), z.unknown()) });
/** The browser's answer to those options, as @simplewebauthn/browser returns it. */
export const PasskeyResponseBody = z
  .object({
    response: z
      .object({
        id: z.string().min(1).max(1024),
        rawId: z.string().min(1).max(1024),
        type: z.literal('public-key'),
        response: z.record(z.string(), z.unknown()),
      })
      .passthrough(),
  })
  .strict();
export const SignedInResult = z.object({ ok: z.literal(true) });

/** A location a staff member may work at: an id, or every location. */
export const StaffLocations = z.union([
  z.array(z.string().regex(/^[1-9]\d{0,9}$/, 'must list location ids')).max(500),
  z.literal('all'),
]);

export const StaffMember = z.object({
  id: z.string(),
  phone: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  locationIds: z.union([z.array(z.string()), z.literal('all')]),
  active: z.boolean(),
  hasPasskey: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof StaffMember>;
export const StaffList = z.object({ staff: z.array(StaffMember) });

const nameField = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters');

export const StaffInviteBody = z
  .object({ phone: phoneField, name: nameField, role: StaffRoleSchema, locationIds: StaffLocations })
  .strict();
export const StaffInviteResult = z.object({
  staff: StaffMember,
  /** Whether the invitation text went out; the staff member exists either way. */
  invitationSent: z.boolean(),
});

export const StaffEditBody = z
  .object({ role: StaffRoleSchema.optional(), locationIds: StaffLocations.optional() })
  .strict()
  .refine((b) => b.role !== undefined || b.locationIds !== undefined, 'Give a role or locations to change.');
export const StaffIdParams = z.object({ staffId: z.uuid() }).strict();
