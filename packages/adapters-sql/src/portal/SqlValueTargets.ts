/** The `ValueTargets` port on PostgreSQL: both merges in one statement, so both land or neither. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type AppliedObjects, type ApplyValues, ValueTargets } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { isUuid, jsonText, toValues } from "../sql/sqlValues.js"

export const makeSqlValueTargets = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // `||` under the row locks: a concurrent merge re-reads the row it waited for, so no update is lost, and the
  // source fence is judged on the committed row (an older version of the same draft than the last applied merges
  // nothing). Both data-modifying CTEs run whatever the final SELECT reads; the artist follows the engagement.
  const apply = Effect.fn("SqlValueTargets.apply")(
    function*(command: ApplyValues) {
      const sourceId = command.source?.submission_id ?? null
      const sourceVersion = command.source?.version ?? null
      if (sourceId !== null && !isUuid(sourceId)) return yield* Effect.die(new Error("an apply's source is a submission id"))
      const rows = yield* sql<{ readonly found: boolean }>`
        WITH en AS (
          UPDATE engagements SET advance = advance || ${jsonText(command.engagement)}::jsonb,
            advance_source_id = COALESCE(${sourceId}::uuid, advance_source_id),
            advance_source_version = COALESCE(${sourceVersion}::int, advance_source_version)
          WHERE id = ${command.engagement_id} AND (${sourceId}::uuid IS NULL
            OR advance_source_id IS DISTINCT FROM ${sourceId}::uuid OR advance_source_version <= ${sourceVersion}::int)
          RETURNING master_artist_id),
        ma AS (
          UPDATE master_artists SET profile = profile || ${jsonText(command.artist)}::jsonb
          WHERE id IN (SELECT master_artist_id FROM en)
          RETURNING id)
        SELECT EXISTS (SELECT 1 FROM engagements e JOIN master_artists a ON a.id = e.master_artist_id
          WHERE e.id = ${command.engagement_id}) AS found`
      return rows[0]?.found === true
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const read = Effect.fn("SqlValueTargets.read")(
    (engagementId: string) =>
      sql<{ readonly profile: unknown; readonly advance: unknown }>`
        SELECT a.profile, en.advance FROM engagements en JOIN master_artists a ON a.id = en.master_artist_id
        WHERE en.id = ${engagementId}`,
    Effect.map((rows) =>
      Option.map(Option.fromNullishOr(rows[0]), (row): AppliedObjects => ({
        profile: toValues(row.profile),
        advance: toValues(row.advance)
      }))
    ),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return ValueTargets.of({ apply, read })
})

export const SqlValueTargets = {
  layer: Layer.effect(ValueTargets, makeSqlValueTargets)
} as const
