import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AgreementDocument, renderAgreement } from './document.ts';
import { pdfTagging, pdfTextLines } from '../../pdf/text.ts';
import { offThreadState, renderAgreementOffThread } from './render-off-thread.ts';

const nashville = {
  timeZone: 'America/Chicago',
  name: 'Nashville Downtown Garage',
  address: '150 3rd Ave S, Nashville, TN 37201',
};
const base: AgreementDocument = {
  productName: 'Ampere',
  type: 'RENTAL_AGREEMENT',
  agreementId: '3f1f2c56-8a0e-4d8c-9b4c-1f4f0c7e2a11',
  platformId: 'AMP-7K2Q-9XD4',
  vehicle: { year: 2025, model: 'Model Y Long Range', color: 'WHITE', vin: '7SAYGDEF5SF100123' },
  pickup: { ...nashville, at: new Date('2026-11-29T16:00:00Z') },
  return: { ...nashville, at: new Date('2026-12-06T16:00:00Z') },
  rentalDays: 7,
  renter: { name: 'Jane Doe', phone: '(615) 555-0123', email: 'jane@example.com' },
  rentalType: 'BUSINESS',
  lineItems: [
    { description: 'Rental ($105 × 7 days)', amount: 73_500 },
    { description: 'Discount on Rental', amount: -7_350 },
    { description: 'Sales tax', amount: 6_119 },
  ],
  total: 72_269,
  depositCents: 20_000,
  hasCollisionProtection: false,
  waiver: null,
  signature: 'Jane Doe',
  signedOn: '2026-11-22',
  signedAt: new Date('2026-11-22T15:00:00Z'),
  timeZone: 'America/Chicago',
  support: { email: 'support@ampere.example', phone: '+1 (615) 555-0142' },
};

const sha256 = (pdf: Uint8Array) => createHash('sha256').update(pdf).digest('hex');

describe('agreement documents', () => {
  it('show the trip, the renter, the charges and the signature as text', async () => {
    const pdf = await renderAgreement(base);
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfTextLines(pdf).join('\n');
    for (const expected of [
      'Rental Agreement',
      'AMP-7K2Q-9XD4',
      '2025 Model Y Long Range, White',
      '7SAYGDEF5SF100123',
      'Sun, Nov 29, 2026, 10:00 AM CST (America/Chicago)',
      'Nashville Downtown Garage, 150 3rd Ave S, Nashville, TN 37201',
      'Jane Doe',
      '(615) 555-0123',
      'jane@example.com',
      'Business',
      '-$73.50',
      '$722.69',
      '200 miles per rental day',
      'a $200.00 hold',
      'until one day before pickup (Nov 28, 2026, 10:00 AM CST)',
      'Signed electronically on Nov 22, 2026',
      'Sun, Nov 22, 2026, 9:00 AM CST (America/Chicago) (2026-11-22T15:00:00.000Z)',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('unless you bought Collision Protection');
  });

  it("state the free-cancellation deadline on the pickup place's clock across a daylight-saving change", async () => {
    // Chicago springs forward on 2026-03-08: a 10:00 AM CDT pickup can be cancelled until 10:00 AM CST the day before.
    const pickup = { ...nashville, at: new Date('2026-03-08T15:00:00Z') };
    const text = pdfTextLines(
      await renderAgreement({ ...base, pickup, return: { ...nashville, at: new Date('2026-03-11T15:00:00Z') } }),
    ).join('\n');
    expect(text).toContain('Sun, Mar 8, 2026, 10:00 AM CDT (America/Chicago)');
    expect(text).toContain('until one day before pickup (Mar 7, 2026, 10:00 AM CST)');
  });

  it("show the waiver's daily price and total", async () => {
    const pdf = await renderAgreement({
      ...base,
      type: 'DAMAGE_WAIVER',
      hasCollisionProtection: true,
      waiver: { pricePerDay: 2_500, days: 7, total: 17_500 },
    });
    const text = pdfTextLines(pdf).join('\n');
    expect(text).toContain('Collision Protection Waiver');
    expect(text).toContain('$25.00 per rental day');
    expect(text).toContain('$175.00 ($25.00 × 7 days)');
    expect(text).not.toContain('Trip total');
  });

  it('are tagged for screen readers: a structure tree in reading order, the language, and the title shown', async () => {
    const tagging = pdfTagging(await renderAgreement(base));
    expect(tagging).toMatchObject({
      hasStructureTree: true,
      isMarked: true,
      lang: 'en-US',
      title: 'Ampere Rental Agreement - Trip AMP-7K2Q-9XD4',
      displaysTitle: true,
    });
    // One Document holding the agreement's title as its one H1, each section's H2, and paragraphs.
    expect(tagging.structureTypes.filter((t) => t === 'Document')).toHaveLength(1);
    expect(tagging.structureTypes.filter((t) => t === 'P').length).toBeGreaterThan(20);
    expect(tagging.structureTypes.filter((t) => t === 'H1')).toHaveLength(1);
    expect(tagging.structureTypes.filter((t) => t === 'H2')).toHaveLength(5); // Trip, Renter, Charges, Terms, Signature
  });

  it('are the same bytes for the same signing (the stored hash can be checked again)', async () => {
    expect(Buffer.from(await renderAgreement(base)).equals(Buffer.from(await renderAgreement(base)))).toBe(true);
  });

  it('are byte for byte the documents signed before, so a stored hash matches the same signing laid out again', async () => {
    // Pinned figures: a change to the layout, its measuring or the PDF library that moves one byte of
    // an agreement fails here, since a renter's signed copy is checked against the hash stored with it.
    const name = 'Łukasz Nguyễn 王';
    const email = 'a.renter.whose.address.is.far.too.long.to.fit.on.one.line.of.the.agreement.so.it.is.cut@example.com';
    const documents: Record<string, AgreementDocument> = {
      rental: base,
      waiver: {
        ...base,
        type: 'DAMAGE_WAIVER',
        hasCollisionProtection: true,
        waiver: { pricePerDay: 1_999, days: 7, total: 13_993 },
      },
      nearestLetters: { ...base, signature: name, renter: { ...base.renter, name } },
      cutWord: { ...base, renter: { ...base.renter, email } },
      manyPages: {
        ...base,
        lineItems: Array.from({ length: 40 }, (_, i) => ({
          description: `Day ${i + 1} rental, a description long enough to wrap onto a second line of the charges table, with the kerning of each word`,
          amount: 10_000 + i,
        })),
        total: 400_780,
      },
    };
    const hashes: Record<string, string> = {};
    for (const [key, d] of Object.entries(documents)) hashes[key] = sha256(await renderAgreement(d));
    expect(hashes).toEqual({
      rental: '1b8ad4e4d650233e4ab2ace73efefb91f0b78bc008bfe7fa1a66e113058b26ed',
      waiver: 'afc7b9db98fa432009f3b594da8d6bd09b5e65de13de0bffaa71af02af730b61',
      nearestLetters: '25d864b2afc06ef511a9ad49989039822783c6c328d95db762e7366211808c52',
      cutWord: 'b8caaeaf862ff8170964259afdd890c264ecc90f2923df829752d795ea6fae55',
      manyPages: '3076a3ed66b96395e445d417831af54851115deaece6d7bdf1e0450d666a77c6',
    });
  });

  it('are the same bytes when laid out in the worker thread, several at once (decision 101)', async () => {
    const waiver = { pricePerDay: 1_999, days: 7, total: 13_993 };
    const docs = [
      base,
      { ...base, type: 'DAMAGE_WAIVER' as const, hasCollisionProtection: true, waiver },
      { ...base, signature: 'Jane Q. Doe' },
    ];
    const inPlace = await Promise.all(docs.map((d) => renderAgreement(d)));
    const offThread = await Promise.all(docs.map((d) => renderAgreementOffThread(d)));
    expect(offThreadState()).toBe('worker');
    offThread.forEach((pdf, i) => expect(Buffer.from(pdf).equals(Buffer.from(inPlace[i]!))).toBe(true));
  });

  it('write names the standard fonts lack with the nearest letters instead of failing', async () => {
    const name = 'Łukasz Nguyễn 王';
    const pdf = await renderAgreement({ ...base, signature: name, renter: { ...base.renter, name } });
    expect(pdfTextLines(pdf)).toContain('Lukasz Nguyen ?');
  });

  it('flow onto more pages with every page numbered', async () => {
    const lineItems = Array.from({ length: 40 }, (_, i) => ({
      description: `Day ${i + 1} rental, a description long enough to wrap onto a second line of the charges table on the page`,
      amount: 10_000,
    }));
    const text = pdfTextLines(await renderAgreement({ ...base, lineItems, total: 400_000 }));
    const footers = text.filter((line) => /Page \d of \d$/.test(line));
    expect(footers.length).toBeGreaterThanOrEqual(3);
    expect(footers.at(-1)).toMatch(new RegExp(`Page ${footers.length} of ${footers.length}$`));
  });
});
