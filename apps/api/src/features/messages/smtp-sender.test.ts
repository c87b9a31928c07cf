import { describe, expect, it } from 'vitest';
import { mapSmtpError } from './smtp-sender.ts';

describe('mapSmtpError: which mail-server failures are worth another try', () => {
  it('a 5xx reply (no such mailbox) is given up; a 4xx reply or a lost connection is retried', () => {
    const refused = Object.assign(new Error('550 5.1.1 User unknown'), { responseCode: 550 });
    expect(mapSmtpError(refused)).toMatchObject({ permanent: true, cause: refused });
    expect(mapSmtpError(refused).message).toContain('refused the message');
    const busy = Object.assign(new Error('451 4.7.1 Try again later'), { responseCode: 451 });
    expect(mapSmtpError(busy).permanent).toBe(false);
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' });
    expect(mapSmtpError(down)).toMatchObject({ permanent: false });
    expect(mapSmtpError(down).message).toContain('could not take it now');
  });
});
