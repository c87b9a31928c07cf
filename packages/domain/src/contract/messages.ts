import { z } from './zod.ts';

/** GET /api/dev/mail: the built-in mailbox, to one address or to everyone. */
export const DevMailQuery = z.object({ to: z.string().trim().min(1).max(320).optional() });
export const DevMailList = z.object({
  emails: z.array(z.object({ to: z.string(), subject: z.string(), body: z.string(), sent_at: z.string() })),
});
