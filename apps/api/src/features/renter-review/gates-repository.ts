import { type RawBuilder, sql } from 'kysely';
import { REVIEW_DECISIONS, decisionPasses } from '@ampere/domain/renter-review';

/**
 * What the verification gates read beside the provider's results (decision 094): a staff decision
 * that lets a check through. Selected by the readers of a renter's license and insurance, so the
 * key, the trip page and the today board decide with them.
 */
const PASSING = REVIEW_DECISIONS.filter(decisionPasses);

/**
 * Whether staff let the renter's newest decided license check through. A newer check from the
 * provider is the renter's own again: the override was about the one before.
 */
export function licenseOverrideOf(userIdColumn: string): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from verification_reviews vr
    where vr.user_id = ${sql.ref(userIdColumn)}
      and vr.decision in (${sql.join(PASSING)})
      and vr.identity_verification_id = (
        select iv.id from identity_verifications iv
        where iv.user_id = ${sql.ref(userIdColumn)} and iv.decided_at is not null
        order by iv.decided_at desc, iv.id desc limit 1))`;
}

/** Whether staff let this insurance connection through (it then counts as WAIVED). */
export function insurancePassedByStaff(idColumn: string): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from verification_reviews vr
    where vr.insurance_verification_id = ${sql.ref(idColumn)} and vr.decision in (${sql.join(PASSING)}))`;
}
