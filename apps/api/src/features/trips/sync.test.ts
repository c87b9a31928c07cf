import { describe, expect, it } from 'vitest';
import type { GatewayPaymentIntent, PaymentIntentStatus } from '../payments/gateway.ts';
import type { PaymentRow } from '../payments/repository.ts';
import { paymentValues } from './sync.ts';

const payment = (status: string): PaymentRow => ({
  id: 'p1',
  reservation_id: 'r1',
  user_id: 'u1',
  kind: 'CHARGE',
  provider: 'sandbox',
  provider_intent_id: 'pi_1',
  client_secret: 'pi_1_secret_x',
  amount: 10_000,
  capture_method: 'automatic',
  status,
  amount_captured: 0,
  amount_refunded: 0,
  payment_method_id: null,
  card_last_4: null,
  card_brand: null,
  last_error: null,
  created_at: new Date('2026-11-22T15:00:00Z'),
  updated_at: new Date('2026-11-22T15:00:00Z'),
});

const intent = (status: PaymentIntentStatus, received = 0): GatewayPaymentIntent => ({
  id: 'pi_1',
  status,
  amount: 10_000,
  amount_capturable: 0,
  amount_received: received,
  amount_refunded: 0,
  payment_method: null,
  card: null,
  last_error: null,
  metadata: {},
});

describe('paymentValues', () => {
  it('a retired charge stays canceling while the provider still shows it open, so it is never offered again', () => {
    for (const open of ['requires_payment_method', 'requires_confirmation', 'requires_action'] as const) {
      expect(paymentValues(payment('canceling'), intent(open)).status).toBe('canceling');
    }
  });

  it('a retired charge takes the provider’s word once it is canceled, or was paid meanwhile', () => {
    expect(paymentValues(payment('canceling'), intent('canceled')).status).toBe('canceled');
    expect(paymentValues(payment('canceling'), intent('succeeded', 10_000))).toMatchObject({
      status: 'succeeded',
      amount_captured: 10_000,
    });
  });

  it('an open charge follows the provider', () => {
    expect(paymentValues(payment('creating'), intent('requires_payment_method')).status).toBe(
      'requires_payment_method',
    );
    expect(paymentValues(payment('requires_payment_method'), intent('succeeded', 10_000)).status).toBe('succeeded');
  });
});
