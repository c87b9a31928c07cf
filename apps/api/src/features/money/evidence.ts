import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { EVIDENCE_MAX_BYTES, sniffEvidenceType } from '@ampere/domain/charges';
import type { Evidence } from '@ampere/domain/contract/ops-money';
import { OPS_API } from '@ampere/domain/contract/ops';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { OpsContext } from '../../http/ops-route.ts';
import type { PhotoStorage } from '../photos/storage.ts';
import * as repo from './repository.ts';

/**
 * Evidence files (decision 091): a photo or a document uploaded for a trip, checked by its first
 * bytes (JPEG, PNG, WebP or PDF) and its size, kept by the photo storage under `evidence/<trip>/`.
 * Staff open them through the console; a renter through a signed address that works for a while.
 */

export const TRIP_NOT_FOUND = 'We could not find that trip in your locations.';
export const EVIDENCE_NOT_FOUND = 'We could not find that evidence.';

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

export async function uploadEvidence(
  deps: { db: Kysely<Database>; storage: PhotoStorage },
  ops: OpsContext,
  input: { tripId: string; kind: 'photo' | 'document'; label: string | undefined; bytes: Buffer },
): Promise<Evidence> {
  const trip = await repo.tripForMoney(deps.db, input.tripId);
  if (!trip) throw notFound(TRIP_NOT_FOUND, 'tripId');
  ops.requireInScope(String(trip.pickup_location_id), TRIP_NOT_FOUND);
  if (input.bytes.length === 0) throw new AppError('UNPROCESSABLE', 'The file is empty.', 'body');
  if (input.bytes.length > EVIDENCE_MAX_BYTES)
    throw new AppError(
      'UNPROCESSABLE',
      `The file is ${(input.bytes.length / 1_048_576).toFixed(1)} MB; evidence can be at most ${EVIDENCE_MAX_BYTES / 1_048_576} MB.`,
      'body',
    );
  const type = sniffEvidenceType(input.bytes);
  if (!type) throw new AppError('UNPROCESSABLE', 'Evidence must be a JPEG, PNG or WebP photo, or a PDF.', 'body');
  if (input.kind === 'photo' && type === 'application/pdf')
    throw new AppError('UNPROCESSABLE', 'A PDF is a document: upload it with kind=document.', 'kind');
  const key = `evidence/${trip.id}/${randomUUID()}.${EXTENSIONS[type]}`;
  await deps.storage.put(key, input.bytes, type);
  const row = await repo.insertEvidence(deps.db, {
    reservation_id: trip.id,
    charge_id: null,
    kind: input.kind,
    label: input.label ?? (input.kind === 'photo' ? 'Photo' : 'Document'),
    storage_key: key,
    content_type: type,
    bytes: input.bytes.length,
    uploaded_by: ops.staff.id,
    created_at: ops.now,
  });
  await ops.audit(deps.db, {
    target: { type: 'trip', id: trip.id },
    locationId: String(trip.pickup_location_id),
    after: { evidence: row.id, kind: row.kind, contentType: type, bytes: row.bytes },
  });
  return staffEvidence(row);
}

/** Evidence as staff see it; a file opens through the console's own call. */
export function staffEvidence(e: repo.EvidenceRow): Evidence {
  return {
    id: e.id,
    kind: e.kind,
    label: e.label,
    value: e.reading_value,
    contentType: e.content_type,
    bytes: e.bytes,
    url: e.storage_key ? `${OPS_API}/evidence/${e.id}` : null,
    inspectionPhotoId: e.inspection_photo_id,
    uploadedAt: new Date(e.created_at).toISOString(),
  };
}

/** An evidence file for staff of the trip's location. */
export async function evidenceFileForStaff(
  deps: { db: Kysely<Database>; storage: PhotoStorage },
  ops: OpsContext,
  evidenceId: string,
): Promise<{ bytes: Buffer; contentType: string }> {
  const e = await repo.findEvidence(deps.db, evidenceId);
  if (!e?.storage_key) throw notFound(EVIDENCE_NOT_FOUND);
  const trip = await repo.tripForMoney(deps.db, e.reservation_id);
  ops.requireInScope(String(trip!.pickup_location_id), EVIDENCE_NOT_FOUND);
  const bytes = await deps.storage.get(e.storage_key);
  if (!bytes) throw notFound(EVIDENCE_NOT_FOUND);
  return { bytes, contentType: e.content_type ?? 'application/octet-stream' };
}

// ---- the renter's signed addresses ----

/** How long a renter's evidence address works after the page was read. */
export const EVIDENCE_LINK_TTL_SECONDS = 30 * 60;

function mac(secret: string, chargeId: string, evidenceId: string, userId: string, expires: number): string {
  return createHmac('sha256', secret)
    .update(`charge-evidence\n${chargeId}\n${evidenceId}\n${userId}\n${expires}`)
    .digest('base64url');
}

export function signedEvidenceUrl(
  secret: string,
  claims: { chargeId: string; evidenceId: string; userId: string; now: Date },
): string {
  const expires = Math.floor(claims.now.getTime() / 1000) + EVIDENCE_LINK_TTL_SECONDS;
  const signature = mac(secret, claims.chargeId, claims.evidenceId, claims.userId, expires);
  return `/api/v1/charges/${claims.chargeId}/evidence/${claims.evidenceId}?expires=${expires}&signature=${signature}`;
}

export function verifyEvidenceUrl(
  secret: string,
  claims: { chargeId: string; evidenceId: string; userId: string; expires: number; signature: string },
  now: Date,
): boolean {
  if (!Number.isSafeInteger(claims.expires) || claims.expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(mac(secret, claims.chargeId, claims.evidenceId, claims.userId, claims.expires));
  const given = Buffer.from(claims.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
