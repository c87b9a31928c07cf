import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link to an agreement document works after it is handed out. */
export const DOCUMENT_LINK_TTL_SECONDS = 15 * 60;

export interface DocumentLinkClaims {
  agreementId: string;
  /** The owner: a link is only good for the renter it was made for, even if ids were ever reused. */
  userId: string;
  /** Unix seconds after which the link is refused. */
  expires: number;
}

function mac(secret: string, claims: DocumentLinkClaims): Buffer {
  // Newline-separated with a purpose prefix, so no other signed value of ours can be replayed as one.
  return createHmac('sha256', secret)
    .update(`agreement-document\n${claims.agreementId}\n${claims.userId}\n${claims.expires}`)
    .digest();
}

export function signDocumentLink(secret: string, claims: DocumentLinkClaims): string {
  return mac(secret, claims).toString('base64url');
}

/** True when the signature was made with this secret for exactly these claims and has not expired. */
export function verifyDocumentLink(secret: string, claims: DocumentLinkClaims, signature: string, now: Date): boolean {
  if (!Number.isSafeInteger(claims.expires) || claims.expires * 1000 <= now.getTime()) return false;
  // Compared as text, not decoded: base64url's last character carries spare bits, so decoding
  // would accept a few altered spellings of the same signature.
  const expected = Buffer.from(mac(secret, claims).toString('base64url'));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Unix seconds when a link made now stops working. */
export function linkExpiry(now: Date): number {
  return Math.floor(now.getTime() / 1000) + DOCUMENT_LINK_TTL_SECONDS;
}
