import { SandboxGateway } from '../src/features/payments/sandbox-gateway.ts';
import { Realtime } from '../src/features/realtime/service.ts';
import { type Engine, type TestContext, createTestContext } from './harness.ts';

export interface SandboxContext extends TestContext {
  /** The sandbox gateway in hand, to capture, cancel and refund as an operator would. */
  gateway: SandboxGateway;
  /** What the app published to renters' realtime channels. */
  published: Array<{ channel: string; event: string; data: { platform_id?: string } & Record<string, unknown> }>;
}

/**
 * A test database and app on the sandbox gateway, whose webhooks are delivered on their own
 * ('on') or only when a test says so ('off'), signed with `webhookSecret` when given.
 */
export async function createSandboxContext(engine: Engine, opts: { deliver: 'on' | 'off'; webhookSecret?: string }): Promise<SandboxContext> {
  let gateway: SandboxGateway | undefined;
  const published: SandboxContext['published'] = [];
  const ctx = await createTestContext(engine, {
    env: { SANDBOX_WEBHOOKS: opts.deliver, ...(opts.webhookSecret ? { SANDBOX_WEBHOOK_SECRET: opts.webhookSecret } : {}) },
    providers: (db, clock) => {
      gateway = new SandboxGateway(db, clock, undefined, opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : undefined);
      const realtime = new Realtime(db, { kind: 'builtin', key: 'test', secret: 's'.repeat(32), send: async (channel, event, data) => void published.push({ channel, event, data: JSON.parse(data) }) });
      return { gateway, realtime };
    },
  });
  return { ...ctx, gateway: gateway!, published };
}
