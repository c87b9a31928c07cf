import { describe, expect, it } from 'vitest';
import { byItemOrder, groupedLines, lineItemLabel, rentalLabel } from './line-items.ts';

const item = (over: Partial<Parameters<typeof groupedLines>[0][number]>) => ({
  category: 'Rack',
  amount: 10_000,
  discount_amount: 0,
  number_of_days: 1,
  addon: null,
  description: '',
  ...over,
});

describe('line items', () => {
  it('are named as the renter reads them: the add-on, the rental’s days, sales tax, the deposit, else the description', () => {
    expect(lineItemLabel({ category: 'Addon', addon: { type: 'DAMAGE_WAIVER' } })).toBe('Collision Protection');
    expect(lineItemLabel({ category: 'Addon', addon: { type: 'PREPAID_EV_CHARGING' } })).toBe('Prepaid Charging');
    expect(lineItemLabel({ category: 'Rack', number_of_days: 1 })).toBe('Rental (1 day)');
    expect(lineItemLabel({ category: 'Rack', number_of_days: 3 })).toBe('Rental (3 days)');
    expect(lineItemLabel({ category: 'Tax' })).toBe('Sales tax');
    expect(lineItemLabel({ category: 'Deposit' })).toBe('Security deposit');
    expect(lineItemLabel({ category: 'Additional', description: 'Underage User Fee' })).toBe('Underage User Fee');
    expect(rentalLabel(null)).toBe('Rental');
  });

  it('are listed in spec 4’s order: Rack, Addon, Additional, Violation, Incidental, Reimbursement, then tax and the deposit', () => {
    const listed = byItemOrder(
      ['Deposit', 'Tax', 'Reimbursement', 'Incidental', 'Violation', 'Additional', 'Addon', 'Rack'].map((category) => ({
        category,
      })),
    );
    expect(listed.map((t) => t.category)).toEqual([
      'Rack',
      'Addon',
      'Additional',
      'Violation',
      'Incidental',
      'Reimbursement',
      'Tax',
      'Deposit',
    ]);
  });

  it('group into one row per label: the rental days summed, add-ons by name, tax last', () => {
    const waiver = item({ category: 'Addon', amount: 2_500, addon: { type: 'DAMAGE_WAIVER' } });
    expect(
      groupedLines([
        item({ category: 'Tax', amount: 900 }),
        item({ amount: 8_000 }),
        item({ amount: 8_000, discount_amount: 800 }),
        waiver,
      ]),
    ).toEqual([
      { label: 'Rental (2 days)', cents: 16_000, discountCents: 800 },
      { label: 'Collision Protection', cents: 2_500, discountCents: 0 },
      { label: 'Sales tax', cents: 900, discountCents: 0 },
    ]);
  });
});
