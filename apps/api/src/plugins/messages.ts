import fp from 'fastify-plugin';
import type { Deps } from '../deps.ts';
import { createSmsSender } from '../features/auth/create-sms-sender.ts';
import type { SmsSender } from '../features/auth/sms-sender.ts';
import { createEmailSender } from '../features/messages/create-email-sender.ts';
import type { EmailSender } from '../features/messages/email-sender.ts';
import { type MessageRecorder, createMessageRecorder } from '../features/messages/record.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The SMS sender: Twilio when configured, else the console sender and its /api/dev/sms outbox. */
    sms: SmsSender;
    /** The email sender: SMTP when configured, else the built-in mailbox (/dev/mailbox). */
    email: EmailSender;
    /** Records a trip's texts and emails in the transaction of the event that causes them (decision 070). */
    messages: MessageRecorder;
  }
}

/** `app.sms`, `app.email` and `app.messages`: what sign-in codes and trip messages go through. */
export const messagesPlugin = fp<Deps>(
  async (app, deps) => {
    app.decorate('sms', deps.sms ?? createSmsSender(deps.config, deps.db, deps.clock));
    app.decorate('email', deps.email ?? createEmailSender(deps.config, deps.db, deps.clock));
    // Links in a text must be whole: the public address, or this server's own in development.
    const baseUrl = deps.config.publicUrl ?? `http://localhost:${deps.config.port}`;
    app.decorate('messages', createMessageRecorder({ baseUrl }));
  },
  { name: 'messages' },
);
