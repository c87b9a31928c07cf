import { describe, expect, it } from 'vitest';
import { DOCUMENT_LINK_TTL_SECONDS, linkExpiry, signDocumentLink, verifyDocumentLink } from './signed-link.ts';

const SECRET = 'a'.repeat(64);
const NOW = new Date('2026-11-22T15:00:00Z');
const claims = {
  agreementId: '3f1f2c56-8a0e-4d8c-9b4c-1f4f0c7e2a11',
  userId: '0b7e3c1a-54d2-4c55-8f1e-7d6a2b9c4e10',
  expires: linkExpiry(NOW),
};

describe('signed links to agreement documents', () => {
  it('work for 15 minutes', () => {
    const sig = signDocumentLink(SECRET, claims);
    expect(DOCUMENT_LINK_TTL_SECONDS).toBe(900);
    expect(verifyDocumentLink(SECRET, claims, sig, NOW)).toBe(true);
    expect(verifyDocumentLink(SECRET, claims, sig, new Date(NOW.getTime() + 899_000))).toBe(true);
    expect(verifyDocumentLink(SECRET, claims, sig, new Date(NOW.getTime() + 900_000))).toBe(false);
  });

  it('are refused when any part or the secret differs', () => {
    const sig = signDocumentLink(SECRET, claims);
    expect(verifyDocumentLink(SECRET, { ...claims, expires: claims.expires + 3600 }, sig, NOW)).toBe(false);
    expect(verifyDocumentLink(SECRET, { ...claims, agreementId: claims.userId }, sig, NOW)).toBe(false);
    expect(verifyDocumentLink(SECRET, { ...claims, userId: claims.agreementId }, sig, NOW)).toBe(false);
    expect(verifyDocumentLink('b'.repeat(64), claims, sig, NOW)).toBe(false);
    expect(verifyDocumentLink(SECRET, claims, '', NOW)).toBe(false);
    expect(verifyDocumentLink(SECRET, claims, `${sig}=`, NOW)).toBe(false);
  });

  it('are refused when any character of the signature is changed', () => {
    const sig = signDocumentLink(SECRET, claims);
    for (let i = 0; i < sig.length; i++) {
      const altered = sig.slice(0, i) + (sig[i] === 'A' ? 'B' : 'A') + sig.slice(i + 1);
      expect(verifyDocumentLink(SECRET, claims, altered, NOW)).toBe(false);
    }
  });
});
