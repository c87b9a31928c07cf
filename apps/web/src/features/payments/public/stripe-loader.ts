import { type Stripe, loadStripe } from '@stripe/stripe-js';

// One Stripe.js instance per publishable key for the life of the page, for saving and paying alike.
const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js for this key, loaded once; null (and tried again next time) when it cannot load. */
export function stripeFor(key: string): Promise<Stripe | null> {
  let stripe = loaded.get(key);
  if (!stripe) {
    stripe = loadStripe(key).catch((err: unknown) => {
      console.error('Stripe.js could not load', err);
      loaded.delete(key);
      return null;
    });
    loaded.set(key, stripe);
  }
  return stripe;
}
