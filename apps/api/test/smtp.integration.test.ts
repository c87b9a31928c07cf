import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageRefused } from '../src/features/messages/email-sender.ts';
import { createSmtpSender } from '../src/features/messages/smtp-sender.ts';

/** A mail server on this machine that keeps what it accepts and refuses one mailbox, as a real one would. */
describe('the SMTP email sender', () => {
  const received: { from: string; to: string[]; data: string }[] = [];
  let server: SMTPServer;
  let port = 0;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('nobody@'))
          return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
        callback();
      },
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the email from EMAIL_FROM to the renter, with its subject and text', async () => {
    const sender = createSmtpSender({ url: `smtp://127.0.0.1:${port}`, from: 'Ampere <trips@example.com>' });
    await sender.send({ to: 'dana@example.com', subject: 'Booking confirmed: Model 3', text: 'Hi Dana,\n\nBooked.' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'trips@example.com', to: ['dana@example.com'] });
    expect(received[0]!.data).toContain('Subject: Booking confirmed: Model 3');
    expect(received[0]!.data).toContain('Hi Dana,');
  });

  it('a mailbox the server refuses is a permanent refusal; a server that is down is worth another try', async () => {
    const sender = createSmtpSender({ url: `smtp://127.0.0.1:${port}`, from: 'trips@example.com' });
    const refused = await sender.send({ to: 'nobody@example.com', subject: 'x', text: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MessageRefused);
    expect(refused).toMatchObject({ permanent: true });
    const down = createSmtpSender({ url: 'smtp://127.0.0.1:1', from: 'trips@example.com' });
    const failed = await down.send({ to: 'dana@example.com', subject: 'x', text: 'x' }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ permanent: false });
  });
});
