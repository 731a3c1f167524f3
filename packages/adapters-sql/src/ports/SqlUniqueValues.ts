/** The `UniqueValues` port on PostgreSQL: which claims a submitted submission already holds, in one query. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type UniqueClaim, UniqueValues } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanTaken = Effect.withSpan("SqlUniqueValues.taken")

export const makeSqlUniqueValues = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const taken = (schemaId: string, claims: ReadonlyArray<UniqueClaim>) =>
    Effect.gen(function*() {
      if (claims.length === 0) return []
      const rows = yield* sql<{ readonly field_slug: string; readonly normalized_value: string }>`
        SELECT field_slug, normalized_value FROM unique_claims
        WHERE schema_id = ${schemaId}
          AND (field_slug, normalized_value) IN (
            SELECT * FROM unnest(${claims.map((c) => c.slug)}::text[], ${claims.map((c) => c.normalized)}::text[]))`
      const held = new Set(rows.map((row) => JSON.stringify([row.field_slug, row.normalized_value])))
      // In the order of the claims, each slug once.
      return [...new Set(claims.filter((c) => held.has(JSON.stringify([c.slug, c.normalized]))).map((c) => c.slug))]
    }).pipe(Effect.catchTag("SqlError", sqlFailure), spanTaken)

  return UniqueValues.of({ taken })
})

export const SqlUniqueValues = {
  layer: Layer.effect(UniqueValues, makeSqlUniqueValues)
} as const
