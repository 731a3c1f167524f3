/** The `UniqueValues` port on PostgreSQL: which claims a submitted submission already holds, in one query. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type UniqueClaim, UniqueValues } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { digestClaims } from "../rows/claimDigest.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanTaken = Effect.withSpan("SqlUniqueValues.taken")

export const makeSqlUniqueValues = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const taken = (schemaId: string, claims: ReadonlyArray<UniqueClaim>) =>
    Effect.gen(function*() {
      if (claims.length === 0) return []
      const digested = digestClaims(claims)
      // Keyed by the digest of the value (claimDigest.ts); a row is returned only for a pair asked about.
      const rows = yield* sql<{ readonly field_slug: string }>`
        SELECT DISTINCT field_slug FROM unique_claims
        WHERE schema_id = ${schemaId}
          AND (field_slug, value_digest) IN (
            SELECT c.slug, decode(c.digest, 'hex')
            FROM unnest(${digested.map((c) => c.slug)}::text[], ${digested.map((c) => c.digest)}::text[]) AS c (slug, digest))`
      const held = new Set(rows.map((row) => row.field_slug))
      // In the order of the claims, each slug once.
      return [...new Set(claims.filter((c) => held.has(c.slug)).map((c) => c.slug))]
    }).pipe(Effect.catchTag("SqlError", sqlFailure), spanTaken)

  return UniqueValues.of({ taken })
})

export const SqlUniqueValues = {
  layer: Layer.effect(UniqueValues, makeSqlUniqueValues)
} as const
