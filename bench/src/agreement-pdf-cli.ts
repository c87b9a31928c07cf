import { type AgreementDocument, renderAgreement } from '@ampere/api/src/features/agreements/document.ts';

/**
 * The CPU an agreement's PDF takes to lay out, in this thread:
 * `node --import tsx bench/src/agreement-pdf-cli.ts [count]`. Lays out `count` (50) agreements,
 * rental agreements and waivers in turn, each for a trip and renter of its own, twice over: the first
 * pass as a new process (the API's PDF worker) meets them, the second once everything is warm. Prints
 * each pass's CPU milliseconds per PDF; with `node --cpu-prof` it shows where they go. Not recorded.
 */
const count = Number(process.argv[2] ?? 50);
if (!Number.isInteger(count) || count < 1)
  throw new Error(`The count must be a whole number above 0 (got ${process.argv[2]}).`);

const garage = {
  timeZone: 'America/Chicago',
  name: 'Nashville Downtown Garage',
  address: '150 3rd Ave S, Nashville, TN 37201',
};
const firstNames = ['Jane', 'Łukasz', 'Amara', 'Tomás', 'Wei', 'Priya', 'Oskar'];
const lastNames = ['Doe', 'Nguyễn', 'Okafor', 'García', 'Chen', 'Raman', 'Lindqvist'];

function agreement(i: number): AgreementDocument {
  const name = `${firstNames[i % firstNames.length]} ${lastNames[(i * 3) % lastNames.length]}`;
  const days = 1 + (i % 14);
  const rental = 10_500 * days;
  const tax = Math.round(rental * 0.0925);
  const waiver = i % 2 === 1;
  return {
    productName: 'Ampere',
    type: waiver ? 'DAMAGE_WAIVER' : 'RENTAL_AGREEMENT',
    agreementId: `3f1f2c56-8a0e-4d8c-9b4c-${String(i).padStart(12, '0')}`,
    platformId: `AMP-7K2Q-${String(i).padStart(4, '0')}`,
    vehicle: { year: 2025, model: 'Model Y Long Range', color: 'WHITE', vin: `7SAYGDEF5SF${String(100_000 + i)}` },
    pickup: { ...garage, at: new Date(Date.UTC(2026, 10, 29, 16) + i * 86_400_000) },
    return: { ...garage, at: new Date(Date.UTC(2026, 10, 29 + days, 16) + i * 86_400_000) },
    rentalDays: days,
    renter: { name, phone: `(615) 555-${String(i % 10_000).padStart(4, '0')}`, email: `renter${i}@example.com` },
    rentalType: i % 3 === 0 ? 'BUSINESS' : 'LEISURE',
    lineItems: [
      { description: `Rental ($105 × ${days} days)`, amount: rental },
      { description: 'Sales tax', amount: tax },
    ],
    total: rental + tax,
    depositCents: 20_000,
    hasCollisionProtection: waiver,
    waiver: waiver ? { pricePerDay: 2_500, days, total: 2_500 * days } : null,
    signature: name,
    signedOn: '2026-11-22',
    signedAt: new Date(Date.UTC(2026, 10, 22, 15, 0, i % 60)),
    timeZone: 'America/Chicago',
    support: { email: 'support@ampere.example', phone: '+1 (615) 555-0142' },
  };
}

async function pass(label: string, offset: number): Promise<void> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await renderAgreement(agreement(offset + i));
  const used = process.cpuUsage(start);
  console.log(
    `${label.padEnd(6)} ${count} PDFs: ${((used.user + used.system) / 1000 / count).toFixed(2)} ms CPU per PDF`,
  );
}

await pass('first', 0);
await pass('warm', count);
