import { type Compilable, CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A statement whose text never depends on its arguments, built and compiled by Kysely once per
 * process: each later call only puts its arguments in the parameters the first compile marked.
 * For the large statements run on every request (a trip view is eight sub-selects), where building
 * and compiling the query tree cost more than running it. `build` must pass each argument into the
 * query as it is: an argument it changes (upper-cases, splits, drops when empty) would not be found
 * among the parameters, and is refused at the first call rather than answered wrongly.
 */
export function compiledOnce<Args extends string[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): ((db: Db, ...args: Args) => Promise<Row[]>) & {
  /** The statement with these arguments, to run as a transaction's last (`lastStatement`). */
  compiled(db: Db, ...args: Args): CompiledQuery<Row>;
} {
  let compiled: { sql: string; parameters: readonly unknown[]; slots: readonly number[] } | undefined;
  const withArguments = (db: Db, args: Args): CompiledQuery<Row> => {
    if (!compiled) {
      const marks = args.map((_, i) => `\u0000argument ${i} of a statement compiled once\u0000`) as Args;
      const query = build(db, ...marks).compile();
      const slots = query.parameters.map((p) => marks.indexOf(p as string));
      const missing = marks.findIndex((_, i) => !slots.includes(i));
      if (missing >= 0) throw new Error(`compiledOnce: argument ${missing} does not reach the statement unchanged.`);
      compiled = { sql: query.sql, parameters: query.parameters, slots };
    }
    const { sql, parameters, slots } = compiled;
    const values = parameters.map((p, i) => (slots[i]! >= 0 ? args[slots[i]!] : p));
    return CompiledQuery.raw(sql, values) as CompiledQuery<Row>;
  };
  const run = async (db: Db, ...args: Args) => (await db.executeQuery<Row>(withArguments(db, args))).rows;
  return Object.assign(run, { compiled: (db: Db, ...args: Args) => withArguments(db, args) });
}
