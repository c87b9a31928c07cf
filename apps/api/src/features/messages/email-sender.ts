/**
 * Sends one email (trip messages, decision 070). A failure is thrown as a MessageRefused: `permanent`
 * when the address itself is refused (retrying cannot help), otherwise the job retries it later.
 */
export interface EmailSender {
  kind: 'smtp' | 'mailbox';
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}

/** A sender's refusal of one message, as the message job reads it. */
export class MessageRefused extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MessageRefused';
  }
}
