import { z } from './zod.ts';
import type { RealtimeClientConfig } from '../realtime.ts';

const RealtimeSettings = z.object({
  provider: z.enum(['pusher', 'builtin']),
  key: z.string(),
  cluster: z.string(),
  wsHost: z.string().nullable(),
  wsPort: z.number().int().nullable(),
  forceTLS: z.boolean().nullable(),
}) satisfies z.ZodType<RealtimeClientConfig>;

/** GET /api/v1/config: the settings the web app needs (support contacts, map style, realtime). */
export const ClientConfig = z.object({
  productName: z.string(),
  supportPhone: z.string(),
  supportEmail: z.string(),
  conciergePhone: z.string(),
  marketingSiteUrl: z.string(),
  mapStyleUrl: z.string().nullable(),
  /** How pusher-js reaches the renter's channel; host, port and TLS are null for the built-in endpoint (the page's own). */
  realtime: RealtimeSettings,
});
export type ClientConfig = z.infer<typeof ClientConfig>;
