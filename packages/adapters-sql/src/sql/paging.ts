/** Keyset pages: one row more than the page is fetched, and tells whether another page follows. */

/** `$limit + 1` rows fetched: the extra one tells whether a row follows. */
export const toPage = <A>(rows: ReadonlyArray<A>, limit: number) => ({
  items: rows.slice(0, limit),
  more: rows.length > limit
})
