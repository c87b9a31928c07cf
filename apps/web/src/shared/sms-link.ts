/** A link that opens a text message to the number on the renter's phone: 'sms:+16155550123'. */
export function smsLink(phone: string): string {
  return `sms:${phone.replace(/[^+\d]/g, '')}`;
}
