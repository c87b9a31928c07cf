import { type Kysely, sql } from 'kysely';

/**
 * Charges after the trip, their evidence and disputes, staff refunds, and a car's plate (issue 30
 * §2 and §3, decisions 091–093).
 *
 * charges: one posted fee on a trip, priced by the catalogue. Its money is in the ledger
 * (`transactions.charge_id`): a part linked to the deposit hold (taken when the hold settles), a
 * part charged to the card off-session, or owed.
 * charge_evidence: what backs a charge: a file kept by the photo storage (a photo or a document),
 * a reading, or an inspection photo's id (text: inspections are linked at merge).
 * charge_disputes: one per charge, opened by the renter within the window, decided by staff.
 * refunds: a refund staff issued from one payment, with who, why and the provider's refund.
 * deposit_reviews: a returned trip's hold kept for review until `review_ends_at`; `settled_at`
 * once it was settled (by staff or by the job), so it settles exactly once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table vehicles add column license_plate text`.execute(db);
  await sql`create unique index vehicles_license_plate on vehicles (license_plate) where license_plate is not null`.execute(
    db,
  );

  await sql`
    create table charges (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      fee_type text not null,
      quantity integer not null check (quantity > 0),
      unit_cents integer not null check (unit_cents >= 0),
      amount integer not null check (amount > 0),
      reason text not null,
      status text not null check (status in ('posted', 'collected', 'charged', 'owed', 'disputed', 'upheld', 'refunded')),
      posted_by uuid references staff(id),
      posted_at timestamptz not null,
      administration_of uuid references charges(id),
      external_reference text,
      occurred_at timestamptz,
      import_key text unique,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index charges_reservation on charges (reservation_id, posted_at)`.execute(db);

  await sql`
    create table charge_evidence (
      id uuid primary key default gen_random_uuid(),
      reservation_id uuid not null references reservations(id),
      charge_id uuid references charges(id),
      kind text not null check (kind in ('photo', 'document', 'reading')),
      label text not null,
      reading_value text,
      storage_key text,
      content_type text,
      bytes integer,
      inspection_photo_id text,
      uploaded_by uuid references staff(id),
      created_at timestamptz not null,
      check (
        (kind = 'reading' and reading_value is not null and storage_key is null)
        or (kind <> 'reading' and (storage_key is not null or inspection_photo_id is not null))
      )
    )`.execute(db);
  await sql`create index charge_evidence_charge on charge_evidence (charge_id)`.execute(db);
  await sql`create index charge_evidence_reservation on charge_evidence (reservation_id)`.execute(db);

  await sql`
    create table charge_disputes (
      id uuid primary key default gen_random_uuid(),
      charge_id uuid not null unique references charges(id),
      renter_text text not null,
      opened_at timestamptz not null,
      outcome text check (outcome in ('accepted', 'rejected')),
      staff_reason text,
      decided_by uuid references staff(id),
      decided_at timestamptz,
      check ((outcome is null) = (decided_at is null))
    )`.execute(db);
  await sql`create index charge_disputes_open on charge_disputes (opened_at) where outcome is null`.execute(db);

  await sql`
    create table refunds (
      id uuid primary key default gen_random_uuid(),
      payment_id uuid not null references payments(id),
      reservation_id uuid not null references reservations(id),
      amount integer not null check (amount > 0),
      reason text not null,
      issued_by uuid references staff(id),
      dispute_id uuid references charge_disputes(id),
      provider_refund_id text,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index refunds_reservation on refunds (reservation_id, created_at)`.execute(db);

  // The card's brand beside its last four, as the provider reports it (the console's deposit list).
  await sql`alter table payments add column card_brand text`.execute(db);
  await sql`alter table transactions add column charge_id uuid references charges(id)`.execute(db);
  await sql`create index transactions_charge on transactions (charge_id) where charge_id is not null`.execute(db);

  await sql`
    create table deposit_reviews (
      payment_id uuid primary key references payments(id),
      reservation_id uuid not null references reservations(id),
      review_ends_at timestamptz not null,
      settled_at timestamptz,
      settled_by uuid references staff(id),
      settled_how text check (settled_how in ('captured', 'released'))
    )`.execute(db);
  await sql`create index deposit_reviews_due on deposit_reviews (review_ends_at) where settled_at is null`.execute(db);
}
