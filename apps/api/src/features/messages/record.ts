import type { Insertable, Kysely, Transaction } from 'kysely';
import {
  MESSAGE_PURPOSE,
  type MessageDetails,
  type TripFacts,
  composeMessage,
  mayMessage,
  plainText,
  sendAfter,
} from '@ampere/domain/messages';
import type { Database, TripMessageTable } from '../../db/schema.ts';
import { type TripForMessage, insertMessage, insertMessages, tripForMessage } from './repository.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Records a trip's messages (decision 070), inside the transaction of the event that causes them:
 * the wording is fixed now (domain/messages.ts), one row per channel — a text to the renter's
 * phone, and an email when their profile has an address — due now or when the pickup place's quiet
 * hours end. A key (`dedupeKey`, by default the trip and kind) recorded before is not recorded
 * again, so a retried event sends one message. Returns how many rows were new.
 */
export interface MessageRecorder {
  /** `trip` is the trip's id, or what its messages name as the caller read it in this transaction. */
  record(
    trx: Db,
    trip: string | TripForMessage,
    now: Date,
    details: MessageDetails,
    dedupeKey?: string,
  ): Promise<number>;
  /**
   * A one-off text a staff member wrote to the trip's renter (decision 095): recorded like the
   * trip's other messages, sent at once by the same sender. Returns the message's id.
   */
  recordStaffText(trx: Db, reservationId: string, now: Date, body: string, dedupeKey: string): Promise<number | null>;
  /** Asks for `wake` each time a message is recorded (the job queue: a send pass shortly, not at the next minute). */
  onRecorded(wake: () => void): void;
}

export function createMessageRecorder(opts: { baseUrl: string }): MessageRecorder {
  let wake: (() => void) | undefined;
  return {
    onRecorded(fn) {
      wake = fn;
    },
    async recordStaffText(trx, reservationId, now, body, dedupeKey) {
      const trip = await tripForMessage(trx, reservationId);
      if (!trip || !trip.user_id) return null;
      const id = await insertMessage(trx, {
        dedupe_key: dedupeKey,
        kind: 'staff_text',
        purpose: MESSAGE_PURPOSE.staff_text,
        reservation_id: trip.id,
        user_id: trip.user_id,
        created_at: now,
        send_after: sendAfter('staff_text', { now, pickupAt: trip.pickup_at, timeZone: trip.timezone }),
        channel: 'sms',
        to_address: trip.phone,
        subject: null,
        body,
      });
      if (id !== null) wake?.();
      return id;
    },
    async record(trx, known, now, details, dedupeKey) {
      const trip = typeof known === 'string' ? await tripForMessage(trx, known) : known;
      const reservationId = tripIdOf(known);
      if (!trip || !trip.user_id) return 0;
      const purpose = MESSAGE_PURPOSE[details.kind];
      // No renter has given marketing consent the app keeps yet: only transactional messages pass.
      if (!mayMessage(purpose, false)) return 0;
      const facts: TripFacts = {
        platformId: trip.platform_id,
        firstName: trip.first_name,
        model: trip.model,
        pickupAt: trip.pickup_at,
        returnAt: trip.return_at,
        timeZone: trip.timezone,
        place: {
          name: trip.place_name,
          street: trip.street,
          city: trip.city,
          state: trip.state,
          zip_code: trip.zip_code,
        },
        pickupInstructions: plainText(trip.pickup_instructions_html),
        baseUrl: opts.baseUrl,
      };
      const message = composeMessage(facts, details);
      const due = sendAfter(details.kind, { now, pickupAt: trip.pickup_at, timeZone: trip.timezone });
      const key = dedupeKey ?? `${reservationId}:${details.kind}`;
      const common = {
        dedupe_key: key,
        kind: details.kind,
        purpose,
        reservation_id: trip.id,
        user_id: trip.user_id,
        created_at: now,
        send_after: due,
      };
      const rows: Insertable<TripMessageTable>[] = [
        { ...common, channel: 'sms', to_address: trip.phone, subject: null, body: message.sms },
      ];
      const email = trip.email?.trim().toLowerCase();
      if (email)
        rows.push({
          ...common,
          channel: 'email',
          to_address: email,
          subject: message.email.subject,
          body: message.email.text,
        });
      const n = await insertMessages(trx, rows);
      if (n > 0) wake?.();
      return n;
    },
  };
}

/**
 * Tells the renter of a charge or a refund made on their trip (cancellation refunds, fees taken at
 * the return; the operator console's charges and refunds later), inside the transaction that
 * records the money. `reference` names this movement among the trip's (a refund's id, 'cancellation'):
 * the same reference is told once.
 */
export function recordMoneyMoved(
  messages: MessageRecorder,
  trx: Db,
  trip: string | TripForMessage,
  now: Date,
  details: Extract<MessageDetails, { kind: 'charge_made' | 'refund_made' }>,
  reference: string,
): Promise<number> {
  return messages.record(trx, trip, now, details, `${tripIdOf(trip)}:${details.kind}:${reference}`);
}

/** The trip's id, given either it or what its messages name. */
function tripIdOf(trip: string | TripForMessage): string {
  return typeof trip === 'string' ? trip : trip.id;
}
