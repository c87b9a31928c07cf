import type { Kysely } from 'kysely';
import type { Clock, TestClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import type { SmsSender } from './features/auth/sms-sender.ts';
import type { EmailSender } from './features/messages/email-sender.ts';
import type { IdentityProvider } from './features/identity/provider.ts';
import type { InsuranceProvider } from './features/insurance/provider.ts';
import type { PaymentGateway } from './features/payments/gateway.ts';
import type { Realtime } from './features/realtime/service.ts';
import type { VehicleAccess } from './features/vehicle-access/provider.ts';
import type { SearchIndex } from './features/vehicles/search-index.ts';

/**
 * What the app is built from. Its own module, so that features can name it without importing
 * app.ts, which imports every feature to assemble them.
 */
export interface Deps {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  /** The SMS sender; by default Twilio when configured, else the console sender (tests inject their own). */
  sms?: SmsSender;
  /** The email sender; by default SMTP when configured, else the built-in mailbox (tests inject their own). */
  email?: EmailSender;
  /** The in-memory fleet and reservations vehicle search reads; one per process. */
  searchIndex?: SearchIndex;
  /** The card-payment gateway; by default Stripe when configured, else the built-in sandbox. */
  gateway?: PaymentGateway;
  /** The renter's realtime channel; by default Pusher when configured, else the built-in endpoint on this server. */
  realtime?: Realtime;
  /** The driver's-license check; by default Veriff when configured, else the built-in twin. */
  identity?: IdentityProvider;
  /** Insurance connections; by default Axle when configured, else the built-in twin. */
  insurance?: InsuranceProvider;
  /** Runs after a license or insurance decision for the renter; by default it issues the digital keys that are now due. */
  afterVerification?: (userId: string) => Promise<void>;
  /** Development only (CLOCK_CONTROL=on): the clock POST /api/dev/clock moves; `clock` must be its clock. */
  testClock?: TestClock;
  /** Locking and reading the cars; by default Smartcar when configured, else the simulated fleet. */
  vehicleAccess?: VehicleAccess;
}
