import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HoldTable } from './holds.ts';

const CARS = 8;

/** Ids as the database writes them (UUIDs, some in capitals), and a few that are not UUIDs. */
const idArb = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const opArb = fc.record({
  id: fc.nat(),
  remove: fc.boolean(),
  at: fc.integer({ min: -1, max: CARS - 1 }),
  from: fc.integer({ min: 0, max: 1_000 }),
});

/** Each car's holds as a set of ids, from the table's lists. */
function listsOf(table: HoldTable, idOfSlot: Map<number, string>) {
  return Array.from({ length: CARS }, (_, at) => {
    const ids: string[] = [];
    for (let s = table.firstOf[at]!; s >= 0; s = table.next[s]!) ids.push(idOfSlot.get(s)!);
    return ids.sort();
  });
}

describe('the hold table', () => {
  it('finds, lists and forgets holds as a Map of them does, in any order of adds and removes', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(idArb, { minLength: 1, maxLength: 120 }),
        fc.array(opArb, { maxLength: 400 }),
        (ids, ops) => {
          const table = new HoldTable(CARS);
          const model = new Map<string, { at: number; from: number }>();
          const idOfSlot = new Map<number, string>();
          for (const op of ops) {
            const id = ids[op.id % ids.length]!;
            const slot = table.find(id);
            expect(slot >= 0).toBe(model.has(id));
            if (slot >= 0) {
              table.remove(slot);
              idOfSlot.delete(slot);
              model.delete(id);
            }
            if (!op.remove) {
              const added = table.add(id, op.at, 1_000 + op.at, op.from, op.from + 10);
              idOfSlot.set(added, id);
              model.set(id, { at: op.at, from: op.from });
            }
          }
          expect(table.size).toBe(model.size);
          for (const id of ids) {
            const slot = table.find(id);
            const want = model.get(id);
            if (!want) expect(slot).toBe(-1);
            else
              expect(table.get(slot)).toEqual({
                at: want.at,
                vehicleId: 1_000 + want.at,
                from: want.from,
                to: want.from + 10,
              });
          }
          const wantLists = Array.from({ length: CARS }, (_, at) =>
            [...model]
              .filter(([, h]) => h.at === at)
              .map(([id]) => id)
              .sort(),
          );
          expect(listsOf(table, idOfSlot)).toEqual(wantLists);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps thousands of UUIDs apart', () => {
    const table = new HoldTable(1);
    const ids = fc.sample(fc.uuid(), 5_000);
    const unique = [...new Set(ids)];
    unique.forEach((id, i) => table.add(id, 0, 1, i, i + 1));
    unique.forEach((id, i) => expect(table.from[table.find(id)]).toBe(i));
    // Every other one removed: the rest are still found, the removed ones are not.
    unique.forEach((id, i) => i % 2 === 0 && table.remove(table.find(id)));
    unique.forEach((id, i) => expect(table.find(id) >= 0).toBe(i % 2 === 1));
    expect(table.size).toBe(Math.floor(unique.length / 2));
  });
});
