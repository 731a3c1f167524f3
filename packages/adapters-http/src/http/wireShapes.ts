/** Shapes every feature's wire uses: ISO 8601 instants, the `{ data }` envelope and the `{ data, next_cursor }` list. */
import { Schema } from "effect"

/** Epoch milliseconds as ISO 8601 UTC (`2027-08-20T10:00:00.000Z`). */
export const iso = (epochMs: number): string => new Date(epochMs).toISOString()

/** An instant that may be absent: ISO 8601, or null. */
export const isoOrNull = (epochMs: number | null): string | null => (epochMs === null ? null : iso(epochMs))

/** `{ data: <item> }`, named for the document. */
export const envelopeOf = <S extends Schema.Top>(item: S, identifier: string) =>
  Schema.Struct({ data: item }).annotate({ identifier })

/** `{ data: [<item>], next_cursor }`, named for the document: a page of an organiser list. */
export const listOf = <S extends Schema.Top>(item: S, identifier: string) =>
  Schema.Struct({ data: Schema.Array(item), next_cursor: Schema.NullOr(Schema.String) }).annotate({ identifier })
