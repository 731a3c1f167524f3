/** Keyset pages in memory, as the SQL adapters answer them: sorted, the rows strictly after the key, `more` when one follows. */
import { compareStrings } from "../shared/compareStrings.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"

/** By `created_at`, then `id` in code-unit order. */
export const oldestFirst = (a: CreatedKey, b: CreatedKey): number => a.created_at - b.created_at || compareStrings(a.id, b.id)
export const newestFirst = (a: CreatedKey, b: CreatedKey): number => oldestFirst(b, a)

/** The page of `rows` after `page.after` in `order` (of the rows' keys). */
export const paged = <A, K>(
  rows: ReadonlyArray<A>,
  keyOf: (a: A) => K,
  order: (a: K, b: K) => number,
  page: PageRequest<K>
): Page<A> => {
  const after = page.after
  const sorted = [...rows].sort((a, b) => order(keyOf(a), keyOf(b)))
  const rest = after === undefined ? sorted : sorted.filter((row) => order(keyOf(row), after) > 0)
  return { items: rest.slice(0, page.limit), more: rest.length > page.limit }
}

/** `paged` for rows that are their own key. */
export const pagedByCreation = <A extends CreatedKey>(
  rows: ReadonlyArray<A>,
  order: (a: CreatedKey, b: CreatedKey) => number,
  page: PageRequest<CreatedKey>
): Page<A> => paged(rows, (row): CreatedKey => row, order, page)
