import type { Env } from './config.ts';

/** The development values of the built-in services' secrets: anyone who reads the code knows them. */
export const DEVELOPMENT_SECRETS = {
  SANDBOX_WEBHOOK_SECRET: 'whsec_sandbox_development_only',
  IDENTITY_TWIN_SECRET: 'identity_twin_development_only',
  INSURANCE_TWIN_SECRET: 'insurance_twin_development_only',
} as const;

/**
 * Why this process counts as production, or undefined when it does not. Either signal is enough:
 * an operator may forget NODE_ENV, but a server renters reach over https is public whatever it says.
 */
export function productionSignal(env: Pick<Env, 'NODE_ENV' | 'PUBLIC_URL'>): string | undefined {
  if (env.NODE_ENV === 'production') return 'NODE_ENV=production';
  if (env.PUBLIC_URL && isPublicHttps(env.PUBLIC_URL)) return `PUBLIC_URL=${env.PUBLIC_URL} is a public https address`;
  return undefined;
}

function isPublicHttps(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'https:') return false;
  const host = hostname.replace(/^\[|\]$/g, '');
  return !(host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host));
}

/**
 * Every development convenience still in place, each as a sentence naming what to set. Empty
 * means the configuration is fit for production. The built-in providers (SMS outbox, sandbox
 * gateway, identity and insurance twins, simulated fleet) and the demo fleet are allowed only
 * with ALLOW_BUILTIN_PROVIDERS=true, for staging; known or derived secrets and the test clock
 * never are (docs/decisions/034-production-mode.md).
 */
export function productionProblems(env: Env): string[] {
  const problems: string[] = [];
  const builtinsAllowed = env.ALLOW_BUILTIN_PROVIDERS === 'true';
  const staging = 'or set ALLOW_BUILTIN_PROVIDERS=true on a staging server';

  if (env.CLOCK_CONTROL === 'on')
    problems.push("CLOCK_CONTROL=on lets anyone move the server's clock: unset CLOCK_CONTROL.");
  if (env.CRASH_AT) problems.push('CRASH_AT makes the server kill itself on purpose, for crash tests: unset CRASH_AT.');
  if (env.CLOCK_START) problems.push("CLOCK_START moves the server's clock for tests: unset CLOCK_START.");
  if (env.SEED_DEMO === 'true' && !builtinsAllowed) {
    problems.push(`Demo seeding would add made-up cars and locations: set SEED_DEMO=false, ${staging}.`);
  }

  const twilio = Boolean(env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN);
  if (!twilio && !builtinsAllowed) {
    problems.push(
      `Sign-in codes would go to the console and the open /api/dev/sms outbox: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER (or TWILIO_MESSAGING_SERVICE_SID), ${staging}.`,
    );
  }

  if (!(env.SMTP_URL && env.EMAIL_FROM) && !builtinsAllowed) {
    problems.push(
      `Trip emails would stay in the built-in mailbox at /dev/mailbox and reach no renter: set SMTP_URL and EMAIL_FROM, ${staging}.`,
    );
  }

  const stripe = Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY);
  if (stripe && !env.STRIPE_WEBHOOK_SECRET) {
    problems.push(
      "Stripe is configured without a webhook secret, so its payment events cannot be trusted: set STRIPE_WEBHOOK_SECRET (the endpoint's whsec_ value).",
    );
  }
  if (!stripe) {
    if (!builtinsAllowed)
      problems.push(
        `Cards would go to the sandbox payment gateway, which takes no money: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, ${staging}.`,
      );
    else if (env.SANDBOX_WEBHOOK_SECRET === DEVELOPMENT_SECRETS.SANDBOX_WEBHOOK_SECRET)
      problems.push('SANDBOX_WEBHOOK_SECRET is the built-in development value: set your own (16+ characters).');
  }

  if (!(env.VERIFF_API_KEY && env.VERIFF_SHARED_SECRET)) {
    if (!builtinsAllowed)
      problems.push(
        `Driver's licenses would be checked by the built-in identity stand-in, not a real provider: set VERIFF_API_KEY and VERIFF_SHARED_SECRET, ${staging}.`,
      );
    if (env.IDENTITY_TWIN_SECRET === DEVELOPMENT_SECRETS.IDENTITY_TWIN_SECRET)
      problems.push(
        "IDENTITY_TWIN_SECRET is the built-in development value, so anyone could forge the identity service's decisions: set your own (16+ characters), or configure Veriff.",
      );
  }

  if (!(env.AXLE_CLIENT_ID && env.AXLE_CLIENT_SECRET && env.AXLE_WEBHOOK_SECRET)) {
    if (!builtinsAllowed)
      problems.push(
        `Insurance would be checked by the built-in insurance stand-in, not a real provider: set AXLE_CLIENT_ID, AXLE_CLIENT_SECRET and AXLE_WEBHOOK_SECRET, ${staging}.`,
      );
    if (env.INSURANCE_TWIN_SECRET === DEVELOPMENT_SECRETS.INSURANCE_TWIN_SECRET)
      problems.push(
        "INSURANCE_TWIN_SECRET is the built-in development value, so anyone could forge the insurance service's events: set your own (16+ characters), or configure Axle.",
      );
  }

  if (!env.SMARTCAR_ACCESS_TOKEN && !builtinsAllowed) {
    problems.push(
      `Cars would be locked and read through the simulated fleet, not the real cars: set SMARTCAR_ACCESS_TOKEN, ${staging}.`,
    );
  }

  const pusher = Boolean(env.PUSHER_APP_ID && env.PUSHER_KEY && env.PUSHER_SECRET);
  if (!pusher && !env.REALTIME_SECRET) {
    problems.push(
      'The realtime secret would be derived from DATABASE_URL or made up per process: set REALTIME_SECRET (32+ characters, e.g. `openssl rand -hex 32`), or configure Pusher.',
    );
  }
  if (!env.PUBLIC_URL) {
    problems.push(
      "Links in renters' texts and emails would point at http://localhost, and staff passkeys would be bound to whatever address a request names: set PUBLIC_URL to the address renters open (e.g. https://rent.example.com).",
    );
  }
  // This server speaks plain http only: an https address means a proxy ends TLS in front of it,
  // and untrusted, that proxy is the only caller it sees (decision 052).
  if (env.PUBLIC_URL && new URL(env.PUBLIC_URL).protocol === 'https:' && env.TRUST_PROXY === 'false') {
    problems.push(
      'PUBLIC_URL is https, so a proxy ends TLS in front of this server, and with TRUST_PROXY=false every renter would look like that proxy to the sign-in and request limits: set TRUST_PROXY to the number of proxies in front (1 for one load balancer).',
    );
  }
  if (!env.SIGNED_URL_SECRET) {
    problems.push(
      'The secret that signs agreement links would be derived from DATABASE_URL or made up per process: set SIGNED_URL_SECRET (32+ characters, e.g. `openssl rand -hex 32`).',
    );
  }
  return problems;
}
