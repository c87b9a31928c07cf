import { describe, expect, it } from 'vitest';
import {
  documentFileName,
  isAcceptableSigningDate,
  normalizeName,
  profileName,
  signatureMatches,
  unsignableReason,
} from './rules.ts';

describe('agreement rules', () => {
  it('signs only while the trip is Started or Pending', () => {
    expect(unsignableReason('Started')).toBeNull();
    expect(unsignableReason('Pending')).toBeNull();
    expect(unsignableReason('On Rent')).toMatch(/already started/);
    expect(unsignableReason('Returned')).toMatch(/already started/);
    expect(unsignableReason('Canceled')).toMatch(/canceled/);
  });

  it("accepts the signing date within a day of today in the trip's zone", () => {
    // 05:30 UTC on Nov 23 is 23:30 on Nov 22 in Phoenix and 00:30 on Nov 23 in New York.
    const now = new Date('2026-11-23T05:30:00Z');
    expect(isAcceptableSigningDate('2026-11-22', now, 'America/Phoenix')).toBe(true);
    expect(isAcceptableSigningDate('2026-11-23', now, 'America/Phoenix')).toBe(true);
    expect(isAcceptableSigningDate('2026-11-21', now, 'America/Phoenix')).toBe(true);
    expect(isAcceptableSigningDate('2026-11-20', now, 'America/Phoenix')).toBe(false);
    expect(isAcceptableSigningDate('2026-11-24', now, 'America/Phoenix')).toBe(false);
    expect(isAcceptableSigningDate('2026-11-24', now, 'America/New_York')).toBe(true);
  });

  it('matches a signature to the profile name ignoring case, spacing and Unicode composition', () => {
    expect(signatureMatches('  jane   DOE ', 'Jane Doe')).toBe(true);
    expect(signatureMatches('Jose\u0301 Núñez', 'José Núñez')).toBe(true);
    expect(signatureMatches('Jane Smith', 'Jane Doe')).toBe(false);
    expect(signatureMatches('JaneDoe', 'Jane Doe')).toBe(false);
    expect(normalizeName('Ana\tMaría  López')).toBe('ana maría lópez');
  });

  it('needs both profile names before a signature is held to them', () => {
    expect(profileName('Jane', 'Doe')).toBe('Jane Doe');
    expect(profileName(' Mary  Ann ', 'Lee')).toBe('Mary Ann Lee');
    expect(profileName('Jane', null)).toBeNull();
    expect(profileName('', 'Doe')).toBeNull();
  });

  it('names the download after the product, the agreement and the trip', () => {
    expect(documentFileName('Ampere', 'RENTAL_AGREEMENT', 'AMP-7K2Q-9XD4')).toBe(
      'Ampere-Rental-Agreement-AMP-7K2Q-9XD4.pdf',
    );
    expect(documentFileName('Ampere', 'DAMAGE_WAIVER', 'AMP-7K2Q-9XD4')).toBe(
      'Ampere-Collision-Protection-Waiver-AMP-7K2Q-9XD4.pdf',
    );
    expect(documentFileName('Ampere', 'RENTAL_AGREEMENT', 'AMP-1"; x=y')).toBe('Ampere-Rental-Agreement-AMP-1xy.pdf');
  });
});
