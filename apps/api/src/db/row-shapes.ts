/**
 * What the server says of a result's columns (pg's field description): the parts a row's shape
 * depends on.
 */
export interface ColumnDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

/** Turns a column's text into its value (pg's type parsers). */
export type ColumnParser = (text: string) => unknown;

/**
 * A result's columns, each one's parser, and a function that makes a row from the columns' texts:
 * an object literal with the columns in order, so that every row of a statement has one shape.
 */
export interface RowShape {
  readonly columns: readonly ColumnDescription[];
  readonly parsers: readonly ColumnParser[];
  readonly build: (texts: readonly (string | null)[]) => Record<string, unknown>;
}

/** Shapes by statement text, kept for the process's first few thousand texts, as their digests are. */
const shapes = new Map<string, RowShape>();
const SHAPES_KEPT = 5000;

/**
 * The row shape of the statement `text` whose result has these columns, made the first time and
 * reused while the server describes the same columns (a migration that changes them makes a new
 * one). Undefined where pg's own way must stay: a column in binary, or named `__proto__` (which an
 * object literal would take as the prototype).
 *
 * pg, for every result, rebuilds a template row (a dictionary object, then copied), looks up each
 * column's parser, and makes each row by copying that template and setting the columns by name.
 * On the booking path that was about 6 % of the API's time (decision 111). A row made here is the
 * same object pg makes: the same keys in the same order (a repeated name keeps its first place and
 * its last value), null for SQL null, and every other value through the parser pg would have used.
 */
export function rowShapeOf(
  text: string,
  columns: readonly ColumnDescription[],
  parserFor: (dataTypeID: number, format: string) => ColumnParser,
): RowShape | undefined {
  const known = shapes.get(text);
  if (known && sameColumns(known.columns, columns)) return known;
  if (columns.some((c) => c.format === 'binary' || c.name === '__proto__')) return undefined;
  const parsers = columns.map((c) => parserFor(c.dataTypeID, c.format || 'text'));
  const make = rowMaker(columns.map((c) => c.name));
  const shape: RowShape = {
    columns: columns.map(({ name, dataTypeID, format }) => ({ name, dataTypeID, format })),
    parsers,
    build: (texts) => make(texts, parsers),
  };
  if (known || shapes.size < SHAPES_KEPT) shapes.set(text, shape);
  return shape;
}

function sameColumns(a: readonly ColumnDescription[], b: readonly ColumnDescription[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.dataTypeID !== y.dataTypeID || x.name !== y.name || x.format !== y.format) return false;
  }
  return true;
}

/**
 * `(t, p) => ({ "name": t[0] === null ? null : p[0](t[0]), … })` for these column names, written as
 * JSON string literals, so that no name can be read as code.
 */
function rowMaker(
  names: readonly string[],
): (t: readonly (string | null)[], p: readonly ColumnParser[]) => Record<string, unknown> {
  const entries = names.map((name, i) => `${JSON.stringify(name)}: t[${i}] === null ? null : p[${i}](t[${i}])`);
  return new Function('t', 'p', `'use strict'; return { ${entries.join(', ')} };`) as (
    t: readonly (string | null)[],
    p: readonly ColumnParser[],
  ) => Record<string, unknown>;
}
