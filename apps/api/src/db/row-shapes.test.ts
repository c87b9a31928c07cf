import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type ColumnDescription, rowShapeOf } from './row-shapes.ts';

// Imported for pg's type parsers as the API sets them (int8 and numeric as numbers, date as text).
import './connect.ts';

/** Types the API's statements return, each with texts the server could send for it. */
const TYPES: { oid: number; text: fc.Arbitrary<string> }[] = [
  { oid: 25, text: fc.string() }, // text
  { oid: 23, text: fc.integer().map(String) }, // int4
  { oid: 20, text: fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }).map(String) }, // int8
  { oid: 1700, text: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String) }, // numeric
  { oid: 16, text: fc.constantFrom('t', 'f') }, // bool
  { oid: 1082, text: fc.constantFrom('2026-11-28', '1999-02-01') }, // date
  { oid: 1184, text: fc.constantFrom('2026-11-28 23:10:05.123+00', '2027-03-14 02:30:00-05') }, // timestamptz
  { oid: 3802, text: fc.json() }, // jsonb
  { oid: 1009, text: fc.constantFrom('{}', '{a,"b c",NULL}') }, // text[]
];

const parserFor = (oid: number, format: string) => pg.types.getTypeParser(oid, format as 'text');

/** A name as a statement could give a column: plain, quoted with anything in it, or one a JS object holds dear. */
const columnName = fc.oneof(
  fc.constantFrom('id', 'status', 'return_at', 'constructor', 'toString', 'hasOwnProperty', '', '0', '1e3'),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
);

/** What pg itself makes of these columns and texts. */
function pgRow(columns: ColumnDescription[], texts: (string | null)[]): Record<string, unknown> {
  const result = new pg.Result(undefined as unknown as string, pg.types) as unknown as {
    addFields(f: ColumnDescription[]): void;
    parseRow(t: (string | null)[]): Record<string, unknown>;
  };
  result.addFields(columns);
  return result.parseRow(texts);
}

describe('row shapes', () => {
  it('make every row exactly as pg would: the same keys in the same order, the same values', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.record({ name: columnName, type: fc.integer({ min: 0, max: TYPES.length - 1 }) }), {
            maxLength: 12,
          })
          .filter((cols) => cols.every((c) => c.name !== '__proto__'))
          .chain((cols) =>
            fc.tuple(
              fc.constant(cols),
              fc.array(fc.tuple(...cols.map((c) => fc.option(TYPES[c.type]!.text, { nil: null }))), {
                minLength: 1,
                maxLength: 3,
              }),
            ),
          ),
        fc.string(),
        ([cols, rows], text) => {
          const columns = cols.map((c) => ({ name: c.name, dataTypeID: TYPES[c.type]!.oid, format: 'text' }));
          const shape = rowShapeOf(`select /* ${text} */`, columns, parserFor);
          expect(shape).toBeDefined();
          for (const texts of rows) {
            const ours = shape!.build(texts);
            const theirs = pgRow(columns, texts);
            expect(Object.keys(ours)).toEqual(Object.keys(theirs));
            expect(ours).toEqual(theirs);
            expect(Object.getPrototypeOf(ours)).toBe(Object.prototype);
          }
        },
      ),
    );
  });

  it('is made once per statement, and again when the server describes other columns', () => {
    const text = `select a, b from t where id = $1 -- ${Math.random()}`;
    const columns = [
      { name: 'a', dataTypeID: 23, format: 'text' },
      { name: 'b', dataTypeID: 25, format: 'text' },
    ];
    const first = rowShapeOf(text, columns, parserFor)!;
    // The server's descriptions are new objects every time; equal ones find the same shape.
    expect(
      rowShapeOf(
        text,
        columns.map((c) => ({ ...c })),
        parserFor,
      ),
    ).toBe(first);
    expect(first.build(['7', 'seven'])).toEqual({ a: 7, b: 'seven' });

    // A migration made `a` a bigint and added a column: the rows follow the new description.
    const migrated = [
      { name: 'a', dataTypeID: 20, format: 'text' },
      ...columns.slice(1),
      { name: 'c', dataTypeID: 16, format: 'text' },
    ];
    const second = rowShapeOf(text, migrated, parserFor)!;
    expect(second).not.toBe(first);
    expect(second.build(['9007199254740991', 'x', 't'])).toEqual({ a: 9007199254740991, b: 'x', c: true });
    expect(rowShapeOf(text, migrated, parserFor)).toBe(second);
  });

  it('leaves to pg what an object literal could not say: binary columns and a column named __proto__', () => {
    expect(
      rowShapeOf('select 1 -- binary', [{ name: 'a', dataTypeID: 17, format: 'binary' }], parserFor),
    ).toBeUndefined();
    expect(
      rowShapeOf('select 1 -- proto', [{ name: '__proto__', dataTypeID: 25, format: 'text' }], parserFor),
    ).toBeUndefined();
  });

  it('cannot be made to run a column name as code', () => {
    const name = `"}); globalThis.ranFromAName = true; ({"`;
    const shape = rowShapeOf('select 1 -- name as code', [{ name, dataTypeID: 25, format: 'text' }], parserFor)!;
    expect(shape.build(['v'])).toEqual({ [name]: 'v' });
    expect((globalThis as { ranFromAName?: boolean }).ranFromAName).toBeUndefined();
  });
});
