/** Keyset pages: one row more than the page is fetched, and tells whether another page follows. */
import type { SqlClient } from "effect/sql"
import type { CreatedKey, PageRequest } from "@forms/domain"

/** `$limit + 1` rows fetched: the extra one tells whether a row follows. */
export const toPage = <A>(rows: ReadonlyArray<A>, limit: number) => ({
  items: rows.slice(0, limit),
  more: rows.length > limit
})

/**
 * Newest first by (created, id), ids compared in code units: the condition of the rows after `page.after`, the
 * order and the limit (one row more than the page), for `… WHERE <scope> AND ${newestFirst(…)}`. `created` and
 * `id` are the columns (or expressions) of the query's table.
 */
export const newestFirst = (
  sql: SqlClient.SqlClient,
  key: { readonly created: string; readonly id: string },
  page: PageRequest<CreatedKey>
) => {
  const after = page.after
  const at = after === undefined ? null : new Date(after.created_at)
  const created = sql.literal(key.created)
  const id = sql.literal(key.id)
  return sql`(${after === undefined} OR ${created} < ${at}::timestamptz
      OR (${created} = ${at}::timestamptz AND ${id} COLLATE "C" < ${after?.id ?? null}::text COLLATE "C"))
    ORDER BY ${created} DESC, ${id} COLLATE "C" DESC LIMIT ${page.limit + 1}`
}
