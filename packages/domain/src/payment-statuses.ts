/**
 * Stripe's PaymentIntent statuses: the gateways', the sandbox's and the payment rows' (with our own
 * two, in charges.ts). A plain list, apart from the contracts' schemas, so a page that needs it
 * does not load the schema library with it (decision 105).
 */
export const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'succeeded',
  'canceled',
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];
