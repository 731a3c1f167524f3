/** The `UniqueValues` port on PostgreSQL: which claims a submitted submission already holds, in one query. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type UniqueClaim, UniqueValues } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { digestClaims } from "./claimDigest.js"

export const makeSqlUniqueValues = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const taken = Effect.fn("SqlUniqueValues.taken")(
    function*(schemaId: string, claims: ReadonlyArray<UniqueClaim>) {
      if (claims.length === 0) return []
      const digested = digestClaims(claims)
      // Keyed by the digest of the value (claimDigest.ts); a row is returned only for a pair asked about.
      // One primary-key probe per pair asked about (the LIMIT keeps the lateral lookup a nested loop): as a
      // semi-join, the plan PostgreSQL caches while the table is small read every claim of the form on each
      // call, which grew with the form's submissions (issue 23).
      const rows = yield* sql<{ readonly field_slug: string }>`
        SELECT DISTINCT c.slug AS field_slug
        FROM unnest(${digested.map((c) => c.slug)}::text[], ${digested.map((c) => c.digest)}::text[]) AS c (slug, digest)
        CROSS JOIN LATERAL (
          SELECT 1 FROM unique_claims u
          WHERE u.schema_id = ${schemaId} AND u.field_slug = c.slug AND u.value_digest = decode(c.digest, 'hex')
          LIMIT 1) AS held`
      const held = new Set(rows.map((row) => row.field_slug))
      // In the order of the claims, each slug once.
      return [...new Set(claims.filter((c) => held.has(c.slug)).map((c) => c.slug))]
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  return UniqueValues.of({ taken })
})

export const SqlUniqueValues = {
  layer: Layer.effect(UniqueValues, makeSqlUniqueValues)
} as const
