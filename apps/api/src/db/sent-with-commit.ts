import { CompiledQuery } from 'kysely';

/**
 * What ends the text of a transaction's last statement that goes to the server with the
 * transaction's `commit` (decision 110). A comment, so that a connection that does not know it (the
 * embedded database's) runs the statement as written and commits when asked, as before.
 */
const COMMIT_MARK = '\n-- sent with the commit of its transaction';

/** The statement `query`, marked to go to the server with its transaction's `commit`. */
export function markedForCommit<Row>(query: CompiledQuery<Row>): CompiledQuery<Row> {
  return CompiledQuery.raw(query.sql + COMMIT_MARK, [...query.parameters]) as CompiledQuery<Row>;
}

export function isSentWithCommit(text: string): boolean {
  return text.endsWith(COMMIT_MARK);
}

export function withoutCommitMark(text: string): string {
  return text.slice(0, -COMMIT_MARK.length);
}
