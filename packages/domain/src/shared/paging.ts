/** Keyset pages (CONTRACT §12): a page asks for rows strictly after the key of the last row it saw. */
import { Schema } from "effect"

/** The position of a row in a list ordered by creation: newest or oldest first, then id. */
export const CreatedKey = Schema.Struct({
  /** Epoch ms. */
  created_at: Schema.Number,
  id: Schema.String
})
export type CreatedKey = typeof CreatedKey.Type

export interface PageRequest<K> {
  /** 1 to 200. */
  readonly limit: number
  /** The key of the last row of the page before; rows strictly after it are listed. */
  readonly after: K | undefined
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** Whether a row follows the last item. */
  readonly more: boolean
}
