import type { ColumnType, Generated } from 'kysely';
import type {
  AddonType,
  CancelReason,
  Color,
  ImageView,
  ReservationStatus,
  SearchOptionType,
} from '@ampere/domain/constants';
import type {
  AgreementType,
  RentalType,
  TransactionCategory,
  TransactionStatus,
} from '@ampere/domain/contract/booking';
import type { ChargeFrequency } from '@ampere/domain/line-items';
import type { MessageKind, MessagePurpose } from '@ampere/domain/messages';
import type { ReviewDecision, ReviewSubject } from '@ampere/domain/renter-review';
import type { AuditOutcome, StaffRole } from '@ampere/domain/staff';
import type { HoldReason } from '@ampere/domain/fleet';
import type { KeyPauser, SupportNoteSource } from '@ampere/domain/car-actions';
import type { DamageSeverity, InspectionStage, InspectionView } from '@ampere/domain/inspections';
import type { ChargeStatus, DisputeOutcome } from '@ampere/domain/charges';
import type { EvidenceKind, FeeTypeId } from '@ampere/domain/fees';
import type {
  IdentitySessionStatus,
  InsuranceResult,
  InsuranceState,
  KeyStatus,
  LicenseStatusValue,
} from '@ampere/domain/verification';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp the database fills in when the insert leaves it out. */
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface RegionTable {
  id: Generated<number>;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  timezone: string;
}

export interface SearchOptionTable {
  id: Generated<number>;
  region_id: number;
  query: string;
  type: SearchOptionType;
  state: string;
  latitude: number;
  longitude: number;
  timezone: string;
  min_reservation_buffer_hours: number | null;
  rank: Generated<number>;
}

export interface LocationTable {
  id: Generated<number>;
  region_id: number;
  name: string;
  street: string;
  city: string;
  state: string;
  zip_code: string;
  latitude: number;
  longitude: number;
  timezone: string;
  is_airport: boolean;
  pickup_instructions_html: string;
  return_instructions_html: string;
  tax_rate_ppm: number;
  /** Migration 0024: the lot's own pickup buffer; null keeps its search options'. */
  min_reservation_buffer_hours: Generated<number | null>;
}

export interface VehicleModelTable {
  id: Generated<number>;
  name: string;
  slug: string;
  type: string;
  seating_capacity: number;
  drivetrain: string;
  mile_range: number;
  zero_to_sixty_mph_seconds: number;
  top_speed_mph: number;
  battery_kwh: number;
}

export interface VehicleTable {
  id: Generated<number>;
  vin: string;
  platform_id: string;
  model_id: number;
  location_id: number;
  year: number;
  color: Color;
  odometer: number;
  rack_rate: number;
  is_self_serve_booking_allowed: boolean;
  battery_type: string;
  /** Migration 0024: when the car was retired; a retired car is never offered again. */
  retired_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0028: the plate, normalised (letters and digits, upper case); unique when set. */
  license_plate: Generated<string | null>;
}

export interface ModelImageTable {
  model_id: number;
  color: Color;
  view: ImageView;
  image_url: string;
  position: number;
}

/** Migration 0025: a car's own photo of one view, standing in for its model's drawing (decision 085). */
export interface CarPhotoTable {
  vehicle_id: number;
  view: ImageView;
  /** Changes with every upload: part of the photo's addresses, so a replaced photo is never served stale. */
  version: string;
  /** The address of its default size, as renter pages show it. */
  image_url: string;
  width: number;
  height: number;
  bytes: number;
  uploaded_by: string | null;
  created_at: Timestamp;
}

/** Migration 0027: a trip's inspection at one stage (decision 089). */
export interface InspectionTable {
  id: Generated<string>;
  reservation_id: string;
  stage: InspectionStage;
  started_by: string | null;
  started_at: Timestamp;
  completed_by: string | null;
  completed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface InspectionDamageTable {
  id: Generated<string>;
  inspection_id: string;
  x: number;
  y: number;
  view: InspectionView;
  severity: DamageSeverity;
  note: string;
  created_by: string | null;
  created_at: Timestamp;
}

export interface InspectionPhotoTable {
  id: string;
  inspection_id: string;
  view: InspectionView | null;
  damage_id: string | null;
  taken_by: 'staff' | 'renter';
  staff_id: string | null;
  user_id: string | null;
  taken_at: Timestamp;
  battery_level: number | null;
  odometer_miles: number | null;
  width: number;
  height: number;
  bytes: number;
}

export interface AddonTable {
  id: string;
  type: AddonType;
  description: string;
  amount: number;
  charge_frequency: ChargeFrequency;
  category: string;
  model_id: number | null;
  active: Generated<boolean>;
}

export interface ReservationTable {
  id: Generated<string>;
  platform_id: string;
  vehicle_id: number;
  user_id: string | null;
  status: ReservationStatus;
  pickup_at: Timestamp;
  return_at: Timestamp;
  /** Decision 015: return_at plus the turnaround, written by the app; the exclusion constraint's end. */
  blocked_until: Timestamp;
  timezone: string;
  pickup_location_id: number;
  dropoff_location_id: number;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  gclid: Generated<string | null>;
  rental_type: Generated<RentalType | null>;
  eligibility_checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  is_eligible: Generated<boolean | null>;
  confirmed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  canceled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  discount_code: Generated<string | null>;
  /** Migration 0011: when the trip went On Rent, and when it was flagged as not returned on time. */
  on_rent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  late_flagged_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0012: when the renter ended the trip. */
  returned_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0013: a change of dates asked for and not yet paid (decision 027). */
  requested_pickup_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  requested_return_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  change_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0018: the dates before the last applied change of dates, and when it applied. */
  changed_from_pickup_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  changed_from_return_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  dates_changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0020: why the trip was cancelled (decision 053); null unless Canceled. */
  cancel_reason: Generated<CancelReason | null>;
}

type DateColumn = ColumnType<string, string, string>;
type Json = ColumnType<unknown, string, string>;

export interface UserTable {
  id: Generated<string>;
  stytch_user_id: string;
  phone: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  /** YYYY-MM-DD (read as text, see connect.ts) */
  birthday: DateColumn | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
  license_name: string | null;
  license_number: string | null;
  license_expiration: DateColumn | null;
  license_status: LicenseStatusValue | null;
  gateway_customer_id: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface LoginCodeTable {
  id: Generated<string>;
  phone: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  failed_attempts: Generated<number>;
  consumed_at: Timestamp | null;
  invalidated_at: Timestamp | null;
}

export interface SessionTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  ip: string | null;
}

export interface RateEventTable {
  id: Generated<number>;
  bucket: string;
  key: string;
  at: Timestamp;
}

/** A limited route's hits from one caller in the current window (decision 038). */
export interface RateLimitWindowTable {
  key: string;
  hits: number;
  resets_at: Timestamp;
}

/** The session whose renter's subscription a realtime socket carries (decision 039). */
export interface RealtimeSocketSessionTable {
  socket_id: string;
  session_id: string;
  created_at: Timestamp;
}

export interface SmsOutboxTable {
  id: Generated<number>;
  to_phone: string;
  body: string;
  sent_at: Timestamp;
}

/** Migration 0022: a trip message to one renter on one channel, sent by a job (decision 070). */
export interface TripMessageTable {
  id: Generated<number>;
  dedupe_key: string;
  channel: 'sms' | 'email';
  kind: MessageKind;
  purpose: MessagePurpose;
  reservation_id: string;
  user_id: string;
  to_address: string;
  subject: string | null;
  body: string;
  created_at: Timestamp;
  send_after: Timestamp;
  status: Generated<'pending' | 'sent' | 'failed' | 'skipped'>;
  attempts: Generated<number>;
  claimed_until: Timestamp | null;
  sent_at: Timestamp | null;
  last_error: string | null;
}

/** Migration 0022: the built-in email sender's mailbox (GET /api/dev/mail, /dev/mailbox). */
export interface EmailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  sent_at: Timestamp;
}

/** Migration 0023: a member of the operator console's staff (decision 079). */
export interface StaffTable {
  id: Generated<string>;
  phone: string;
  name: string;
  email: string | null;
  role: StaffRole;
  /** The locations they work at; null: every location. */
  location_ids: string[] | null;
  active: Generated<boolean>;
  invited_by: string | null;
  created_at: Timestamp;
  last_sign_in_at: Timestamp | null;
}

/** Migration 0023: a staff member's passkey (a WebAuthn credential). */
export interface StaffPasskeyTable {
  credential_id: string;
  staff_id: string;
  public_key: Buffer;
  counter: Generated<string>;
  transports: Generated<string[]>;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** Migration 0023: a staff sign-in, apart from renters' sessions. */
export interface StaffSessionTable {
  id: Generated<string>;
  token_hash: string;
  staff_id: string;
  passkey_verified: Generated<boolean>;
  created_at: Timestamp;
  last_used_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Migration 0026: the passkey challenge this session is answering, single-use, and until when. */
  passkey_challenge: string | null;
  passkey_challenge_expires_at: Timestamp | null;
}

/** Migration 0026: a sign-in code texted to a staff member, apart from renters' codes (decision 081). */
export interface StaffSignInCodeTable {
  id: Generated<string>;
  staff_id: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  failed_attempts: Generated<number>;
  consumed_at: Timestamp | null;
  invalidated_at: Timestamp | null;
}

/** Migration 0023: one staff action or refused attempt; the database refuses updates and deletes. */
export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  staff_id: string | null;
  staff_role: StaffRole | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  location_id: string | null;
  before: Json | null;
  after: Json | null;
  source_address: string | null;
  outcome: AuditOutcome;
  reason: string | null;
}

/** Migration 0029: a staff decision on a license check or insurance connection that did not pass (decision 094). */
export interface VerificationReviewTable {
  id: Generated<string>;
  user_id: string;
  subject: ReviewSubject;
  identity_verification_id: string | null;
  insurance_verification_id: string | null;
  provider_status: string;
  decision: ReviewDecision;
  reason: string | null;
  decided_by: string;
  decided_at: Timestamp;
}

/** Migration 0029: a renter on the do-not-rent list until an expiry, unless lifted (decision 095). */
export interface DoNotRentTable {
  id: Generated<string>;
  user_id: string;
  reason: string;
  until: Timestamp;
  listed_by: string;
  listed_at: Timestamp;
  lifted_at: Timestamp | null;
  lifted_by: string | null;
  lift_reason: string | null;
}

/** Migration 0024: a car blocked for a period (decision 083); car_blocks keeps it apart from bookings. */
export interface VehicleHoldTable {
  id: Generated<string>;
  vehicle_id: number;
  reason: HoldReason;
  note: Generated<string>;
  starts_at: Timestamp;
  ends_at: Timestamp;
  canceled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: DefaultedTimestamp;
}

/** Migration 0024: every period a car is taken, by a booking or a hold, kept by triggers under one exclusion constraint. */
export interface CarBlockTable {
  vehicle_id: number;
  reservation_id: string | null;
  hold_id: string | null;
  period: string;
}

/** Migration 0024: one row; moved by every change of cars or locations (the search indexes compare it). */
export interface FleetVersionTable {
  id: Generated<boolean>;
  version: ColumnType<string, never, never>;
}

export interface FlagOverrideTable {
  user_id: string;
  key: string;
  value: Json;
}

export interface AnalyticsEventTable {
  id: Generated<number>;
  name: string;
  user_id: string | null;
  anonymous_id: string | null;
  properties: Json;
  occurred_at: Timestamp;
  received_at: Timestamp;
}

export interface InsuranceVerificationTable {
  id: Generated<string>;
  user_id: string;
  reservation_id: string | null;
  status: InsuranceState;
  carrier: string | null;
  policy_number: string | null;
  created_at: DefaultedTimestamp;
  /** Migration 0009 (decision 022): the Axle (or twin) session behind this row and what it found. */
  provider: string | null;
  ignition_token: string | null;
  ignition_uri: string | null;
  account_id: string | null;
  policy_id: string | null;
  /** YYYY-MM-DD */
  policy_expires_on: ColumnType<string | null, string | null | undefined, string | null>;
  result: InsuranceResult | null;
  last_error: string | null;
  updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** The insurance twin's own Ignition sessions, as Axle keeps them. */
export interface TwinAxleIgnitionTable {
  token: string;
  status: string;
  user_ref: string;
  carrier: string | null;
  outcome: string | null;
  auth_code: string | null;
  auth_code_expires_at: Timestamp | null;
  access_token: string | null;
  account: ColumnType<unknown, string | null, string | null>;
  policy: ColumnType<unknown, string | null, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SandboxCustomerTable {
  id: string;
  created_at: Timestamp;
  metadata: Json;
  idempotency_key: string | null;
}

export interface SandboxPaymentMethodTable {
  id: string;
  seq: Generated<number>;
  customer_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: string;
  created_at: Timestamp;
  detached_at: Timestamp | null;
}

export interface SandboxSetupIntentTable {
  id: string;
  client_secret: string;
  customer_id: string;
  status: string;
  payment_method_id: string | null;
  last_error: Json | null;
  created_at: Timestamp;
}

export interface DiscountTable {
  code: string;
  kind: string;
  type: Generated<string>;
  unit: Generated<string>;
  percent: number;
  description: string;
  active: Generated<boolean>;
  starts_at: Timestamp | null;
  ends_at: Timestamp | null;
  max_redemptions: number | null;
  /** The code's live claims (coupon_claims, decision 052), so max_redemptions is one conditional update. */
  redemptions: Generated<number>;
  new_renters_only: Generated<boolean>;
}

/** Migration 0019 (decision 052): the code a trip's payment claimed; redeemed when its charge settled. */
export interface CouponClaimTable {
  reservation_id: string;
  code: string;
  user_id: string;
  first_trip: boolean;
  claimed_at: Timestamp;
  redeemed_at: Timestamp | null;
}

export interface PaymentTable {
  id: Generated<string>;
  reservation_id: string;
  user_id: string;
  kind: 'CHARGE' | 'DEPOSIT_HOLD';
  provider: string;
  /** Null while the row is 'creating': written before the provider is called. */
  provider_intent_id: string | null;
  client_secret: string | null;
  amount: number;
  currency: Generated<string>;
  capture_method: 'automatic' | 'manual';
  status: string;
  amount_captured: Generated<number>;
  amount_refunded: Generated<number>;
  payment_method_id: string | null;
  card_last_4: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 0014: a renewal names the hold it replaces until the swap (decision 028). */
  replaces_payment_id: Generated<string | null>;
  /** Migration 0028: the card's brand as the provider reports it ('visa'); never more of the card than this and the last four. */
  card_brand: Generated<string | null>;
  /** Migration 0031: a charge after the trip made on the trip's card without the renter (decision 091). */
  off_session: Generated<boolean>;
}

export interface TransactionTable {
  id: Generated<string>;
  reservation_id: string;
  category: TransactionCategory;
  status: TransactionStatus;
  description: string;
  cost: number;
  amount: number;
  captured_amount: Generated<number>;
  discount_amount: Generated<number>;
  number_of_days: number | null;
  /** YYYY-MM-DD */
  effective_date: DateColumn | null;
  initiated_at: Timestamp;
  released_at: Timestamp | null;
  card_last_4: string | null;
  payment_id: string | null;
  reserve_applied_payment_id: string | null;
  addon_id: string | null;
  created_at: DefaultedTimestamp;
  /** Migration 0028: the after-trip charge this item books (decision 091). */
  charge_id: Generated<string | null>;
}

export interface AgreementTable {
  id: Generated<string>;
  reservation_id: string;
  user_id: string;
  type: AgreementType;
  signature: string;
  /** YYYY-MM-DD */
  signed_on: DateColumn;
  rental_type: RentalType;
  document: Buffer;
  document_sha256: string;
  created_at: Timestamp;
}

export interface IdempotencyKeyTable {
  user_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  status_code: number | null;
  response_body: Json | null;
  created_at: Timestamp;
}

export interface WebhookEventTable {
  provider: string;
  event_id: string;
  type: string;
  object_id: string | null;
  payload: Json;
  received_at: Timestamp;
  processed_at: Timestamp | null;
}

export interface SandboxPaymentIntentTable {
  id: string;
  client_secret: string;
  customer_id: string | null;
  amount: number;
  amount_capturable: Generated<number>;
  amount_received: Generated<number>;
  amount_refunded: Generated<number>;
  currency: string;
  capture_method: string;
  status: string;
  payment_method_id: string | null;
  setup_future_usage: string | null;
  last_error: Json | null;
  metadata: Json;
  idempotency_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SandboxEventTable {
  id: string;
  seq: Generated<number>;
  type: string;
  payload: Json;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
  attempts: Generated<number>;
  next_attempt_at: DefaultedTimestamp;
  last_error: string | null;
}

/** A hosted license check a renter started (migration 0008, decision 021). */
export interface IdentityVerificationTable {
  id: Generated<string>;
  user_id: string;
  reservation_id: string | null;
  provider: string;
  provider_session_id: string;
  status: IdentitySessionStatus;
  url: string;
  reason: string | null;
  decided_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The identity twin's own sessions, as the provider keeps them. */
export interface TwinIdentitySessionTable {
  id: string;
  status: string;
  first_name: string | null;
  last_name: string | null;
  vendor_data: string;
  decision: ColumnType<unknown, string | null, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A trip's digital key (migration 0010, decision 023); the token itself is derived, only its hash is kept. */
export interface DigitalKeyTable {
  id: Generated<string>;
  reservation_id: string;
  token_hash: string;
  status: KeyStatus;
  valid_from: Timestamp;
  valid_until: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Migration 0030: who paused a paused key ('renter' or 'staff'). */
  paused_by: Generated<KeyPauser | null>;
}

/** Migration 0030: a note on a trip for support, opened by a failed unlock (decision 096). */
export interface SupportNoteTable {
  id: Generated<string>;
  reservation_id: string;
  source: SupportNoteSource;
  staff_id: string | null;
  title: string;
  detail: string;
  dedupe_key: string | null;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
}

/** Migration 0012: the car as it went out (On Rent) and came back (ended); numerics read as numbers. */
export interface RideTable {
  reservation_id: string;
  vehicle_id: number;
  vin: string;
  mileage_out: ColumnType<number | null, number | null, number | null>;
  battery_out: ColumnType<number | null, number | null, number | null>;
  vehicle_pickup_at: Timestamp;
  mileage_in: ColumnType<number | null, number | null | undefined, number | null>;
  battery_in: ColumnType<number | null, number | null | undefined, number | null>;
  vehicle_return_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

/** The built-in fleet's cars, as a connected-car API reports them. */
export interface SimulatedCarTable {
  vehicle_id: number;
  locked: boolean;
  odometer_miles: number;
  battery_level: number;
  updated_at: Timestamp;
}

export interface CarCommandTable {
  id: Generated<number>;
  key_id: string;
  vehicle_id: number;
  command: string;
  result: string;
  created_at: Timestamp;
}

/** The provider twins' outbox (migration 0007): one row per webhook event a twin will send. */
export interface TwinEventTable {
  id: string;
  seq: Generated<number>;
  twin: string;
  type: string;
  payload: Json;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
  attempts: Generated<number>;
  next_attempt_at: DefaultedTimestamp;
  last_error: string | null;
}

/** A mismatched charge's refund: the audit record, and the outbox until refunded_at is set (decision 018). */
export interface PaymentRefundTable {
  id: Generated<string>;
  payment_id: string;
  reservation_id: string;
  amount: number;
  reason: string;
  created_at: Timestamp;
  provider_refund_id: string | null;
  refunded_at: Timestamp | null;
}

/** The sandbox provider's Refund objects (one per idempotency key, as on Stripe). */
export interface SandboxRefundTable {
  id: string;
  payment_intent_id: string;
  amount: number;
  idempotency_key: string | null;
  created_at: Timestamp;
}

/** A trip's receipt link (migration 0015, decision 031): only the token's hash is kept. */
export interface ReceiptTokenTable {
  id: Generated<string>;
  reservation_id: string;
  token_hash: string;
  created_by: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface AppSecretTable {
  name: string;
  value: Buffer;
  created_at: DefaultedTimestamp;
}

/** Migration 0028: a charge posted after a trip (decision 091). */
export interface ChargeTable {
  id: Generated<string>;
  reservation_id: string;
  fee_type: FeeTypeId;
  quantity: number;
  unit_cents: number;
  amount: number;
  reason: string;
  status: ChargeStatus;
  posted_by: string | null;
  posted_at: Timestamp;
  administration_of: string | null;
  external_reference: string | null;
  occurred_at: Timestamp | null;
  import_key: string | null;
  updated_at: Timestamp;
}

/** Migration 0028: what backs a charge: a stored file, a reading, or an inspection photo's id. */
export interface ChargeEvidenceTable {
  id: Generated<string>;
  reservation_id: string;
  charge_id: string | null;
  kind: EvidenceKind;
  label: string;
  reading_value: string | null;
  storage_key: string | null;
  content_type: string | null;
  bytes: number | null;
  inspection_photo_id: string | null;
  uploaded_by: string | null;
  created_at: Timestamp;
}

/** Migration 0028: a renter's dispute of a charge and staff's decision. */
export interface ChargeDisputeTable {
  id: Generated<string>;
  charge_id: string;
  renter_text: string;
  opened_at: Timestamp;
  outcome: DisputeOutcome | null;
  staff_reason: string | null;
  decided_by: string | null;
  decided_at: Timestamp | null;
}

/** Migration 0028: a refund staff issued (or an accepted dispute made) from one payment. */
export interface RefundTable {
  id: Generated<string>;
  payment_id: string;
  reservation_id: string;
  amount: number;
  reason: string;
  issued_by: string | null;
  dispute_id: string | null;
  provider_refund_id: string | null;
  created_at: Timestamp;
}

/** Migration 0028: a returned trip's deposit hold kept for review, settled once (decision 092). */
export interface DepositReviewTable {
  payment_id: string;
  reservation_id: string;
  review_ends_at: Timestamp;
  settled_at: Timestamp | null;
  settled_by: string | null;
  settled_how: 'captured' | 'released' | null;
}

export interface Database {
  charges: ChargeTable;
  charge_evidence: ChargeEvidenceTable;
  charge_disputes: ChargeDisputeTable;
  refunds: RefundTable;
  deposit_reviews: DepositReviewTable;
  receipt_tokens: ReceiptTokenTable;
  digital_keys: DigitalKeyTable;
  simulated_cars: SimulatedCarTable;
  rides: RideTable;
  car_commands: CarCommandTable;
  support_notes: SupportNoteTable;
  twin_axle_ignitions: TwinAxleIgnitionTable;
  identity_verifications: IdentityVerificationTable;
  twin_identity_sessions: TwinIdentitySessionTable;
  twin_events: TwinEventTable;
  app_secrets: AppSecretTable;
  discounts: DiscountTable;
  coupon_claims: CouponClaimTable;
  payments: PaymentTable;
  payment_refunds: PaymentRefundTable;
  sandbox_refunds: SandboxRefundTable;
  transactions: TransactionTable;
  agreements: AgreementTable;
  idempotency_keys: IdempotencyKeyTable;
  webhook_events: WebhookEventTable;
  sandbox_payment_intents: SandboxPaymentIntentTable;
  sandbox_events: SandboxEventTable;
  users: UserTable;
  login_codes: LoginCodeTable;
  sessions: SessionTable;
  rate_events: RateEventTable;
  rate_limit_windows: RateLimitWindowTable;
  realtime_socket_sessions: RealtimeSocketSessionTable;
  sms_outbox: SmsOutboxTable;
  trip_messages: TripMessageTable;
  email_outbox: EmailOutboxTable;
  staff: StaffTable;
  staff_passkeys: StaffPasskeyTable;
  vehicle_holds: VehicleHoldTable;
  car_blocks: CarBlockTable;
  fleet_version: FleetVersionTable;
  staff_sessions: StaffSessionTable;
  staff_sign_in_codes: StaffSignInCodeTable;
  audit_log: AuditLogTable;
  verification_reviews: VerificationReviewTable;
  do_not_rent: DoNotRentTable;
  flag_overrides: FlagOverrideTable;
  analytics_events: AnalyticsEventTable;
  insurance_verifications: InsuranceVerificationTable;
  sandbox_customers: SandboxCustomerTable;
  sandbox_payment_methods: SandboxPaymentMethodTable;
  sandbox_setup_intents: SandboxSetupIntentTable;
  regions: RegionTable;
  search_options: SearchOptionTable;
  locations: LocationTable;
  vehicle_models: VehicleModelTable;
  vehicles: VehicleTable;
  model_images: ModelImageTable;
  car_photos: CarPhotoTable;
  inspections: InspectionTable;
  inspection_damage: InspectionDamageTable;
  inspection_photos: InspectionPhotoTable;
  addons: AddonTable;
  reservations: ReservationTable;
}
