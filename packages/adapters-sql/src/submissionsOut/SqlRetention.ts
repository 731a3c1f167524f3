/**
 * The `Retention` port on PostgreSQL (CONTRACT §12): batches of at most 1,000 rows, each a transaction that
 * first takes a transaction-scoped advisory lock without waiting. A process that finds it held skips the
 * sweep: one process sweeps at a time, whatever the number sharing the database (the key includes the
 * schema, so deployments in other schemas of one database sweep independently).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Retention, type SweepCutoffs } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"

export const retentionBatchRows = 1000
const lockKey = "forms_retention_sweep"

export const makeSqlRetention = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** One batch under the lock: how many drafts and payloads it changed, or undefined when the lock is held. */
  const batch = (cutoffs: SweepCutoffs) =>
    sql.withTransaction(Effect.gen(function*() {
      const [lock] = yield* sql<{ readonly locked: boolean }>`
        SELECT pg_try_advisory_xact_lock(hashtextextended(${lockKey} || ':' || current_schema(), 0)) AS locked`
      if (lock?.locked !== true) return undefined
      // Drafts of public forms only: a portal draft (subject_id set) is the engagement's advance record.
      const [drafts] = yield* sql<{ readonly n: number }>`WITH gone AS (
          DELETE FROM submissions WHERE id IN (
            SELECT id FROM submissions WHERE status = 'draft' AND subject_id IS NULL
              AND updated_at < ${new Date(cutoffs.draftsUpdatedBefore)}::timestamptz
            LIMIT ${retentionBatchRows} FOR UPDATE SKIP LOCKED)
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`
      const [payloads] = yield* sql<{ readonly n: number }>`WITH emptied AS (
          UPDATE outbox SET payload = '{}'::jsonb WHERE id IN (
            SELECT id FROM outbox WHERE delivered_at < ${new Date(cutoffs.deliveredBefore)}::timestamptz
              AND payload <> '{}'::jsonb
            LIMIT ${retentionBatchRows} FOR UPDATE SKIP LOCKED)
          RETURNING 1)
        SELECT count(*)::int AS n FROM emptied`
      return { drafts: drafts?.n ?? 0, payloads: payloads?.n ?? 0 }
    }))

  const sweep = Effect.fn("SqlRetention.sweep")(
    function*(cutoffs: SweepCutoffs) {
      let drafts = 0
      let payloads = 0
      for (;;) {
        const done = yield* batch(cutoffs)
        if (done === undefined) {
          // Held by another process: it sweeps. A batch of ours before this one still counts.
          return { ran: drafts + payloads > 0, drafts_deleted: drafts, payloads_emptied: payloads }
        }
        drafts += done.drafts
        payloads += done.payloads
        if (done.drafts < retentionBatchRows && done.payloads < retentionBatchRows) {
          return { ran: true, drafts_deleted: drafts, payloads_emptied: payloads }
        }
      }
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  return Retention.of({ sweep })
})

export const SqlRetention = {
  layer: Layer.effect(Retention, makeSqlRetention)
} as const
