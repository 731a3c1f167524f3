/**
 * ShiftPlaces on PostgreSQL (CONTRACT §22). Giving a place up is one transaction that locks as every other change of
 * places does: the submission's row first (as a submit and an erasure do), then the slot's row (as
 * `forms_take_places` and `forms_promote` do), then reads the place under that lock; the place deleted, the values
 * and the event written in one statement, and `forms_promote` the one statement promotion adds.
 */
import { Effect, Layer, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError, type SqlError } from "effect/sql/SqlError"
import {
  type Actor,
  CancelClosed,
  type CancelPlaceCommand,
  ManageNotFound,
  PlaceNotFound,
  ShiftPlaces,
  SubmissionNotFound,
  type Unavailable
} from "@forms/domain"
import { eventsJson, outboxChannel, wakeAfterCommit } from "../events/OutboxRecord.js"
import { appendAudit } from "../sql/appendAudit.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { isUuid, jsonText, toValues } from "../sql/sqlValues.js"
import { isTransient } from "../sql/transientRetries.js"
import { hashManageToken, newManageToken } from "./manageToken.js"
import { promoteWithMessages } from "../reminders/promoteWithMessages.js"

/** A deadlock or a serialization failure: the whole transaction again, at once, up to 5 more times. */
const retries = Schedule.recurs(5).pipe(Schedule.while(({ input }) => isTransient(input as SqlError)))

export const makeSqlShiftPlaces = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const wake = yield* wakeAfterCommit

  const run = <A, E>(transaction: Effect.Effect<A, E | SqlError>): Effect.Effect<A, Exclude<E, SqlError> | Unavailable> =>
    sql.withTransaction(transaction).pipe(
      Effect.retry(retries),
      Effect.catchIf(isSqlError, sqlFailure),
      Effect.tap(() => wake)
    )

  const findManaged = Effect.fn("SqlShiftPlaces.findManaged")(
    (token: string) =>
      sql<{ readonly submission_id: string; readonly schema_id: string }>`
        SELECT id::text AS submission_id, schema_id FROM submissions
        WHERE manage_token_hash = ${hashManageToken(token)} AND status = 'submitted'`.pipe(
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      ),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const cancelLocked = Effect.fnUntraced(function*(command: CancelPlaceCommand) {
    const [submission] = yield* sql<{ readonly id: string; readonly values: unknown }>`
      SELECT id::text AS id, values FROM submissions
      WHERE manage_token_hash = ${hashManageToken(command.token)} AND status = 'submitted' FOR UPDATE`
    if (submission === undefined) return yield* new ManageNotFound({})
    const [slot] = yield* sql<{ readonly starts_at: number }>`
      SELECT (extract(epoch FROM starts_at) * 1000)::float8 AS starts_at FROM time_slots WHERE id = ${command.slot_id} FOR UPDATE`
    if (slot === undefined) return yield* new PlaceNotFound({})
    // Read after the slot's lock: every change of this slot's places holds it.
    const [place] = yield* sql<{ readonly status: "confirmed" | "waitlisted" }>`
      SELECT status FROM slot_places WHERE slot_id = ${command.slot_id} AND submission_id = ${submission.id}::uuid`
    if (place === undefined) return yield* new PlaceNotFound({})
    if (!command.decide({ status: place.status, starts_at: Number(slot.starts_at) })) return yield* new CancelClosed({})
    const at = new Date(command.at)
    yield* sql`WITH gone AS (
        DELETE FROM slot_places WHERE slot_id = ${command.slot_id} AND submission_id = ${submission.id}::uuid
      ), changed AS (
        UPDATE submissions SET values = ${jsonText(command.values(toValues(submission.values)))}::jsonb,
          updated_at = ${at}::timestamptz, version = version + 1
        WHERE id = ${submission.id}::uuid
      ), recorded AS (
        INSERT INTO outbox (type, payload, available_at, created_at)
        SELECT e.event->>'type', e.event->'payload', ${at}::timestamptz, ${at}::timestamptz
        FROM jsonb_array_elements(${eventsJson([command.event])}::jsonb) AS e (event)
      )
      SELECT pg_notify(${outboxChannel}, current_schema())`
    // The freed place goes to the earliest waiting one, in this transaction, with its promotion message.
    yield* promoteWithMessages(sql, [command.slot_id], at)
  })

  const cancel = Effect.fn("SqlShiftPlaces.cancel")((command: CancelPlaceCommand) =>
    run(cancelLocked(command))
  )

  const issueManageLink = Effect.fn("SqlShiftPlaces.issueManageLink")((actor: Actor, submissionId: string, at: number) =>
    isUuid(submissionId)
      ? run(Effect.gen(function*() {
        const token = newManageToken()
        const updated = yield* sql`UPDATE submissions s SET manage_token_hash = ${hashManageToken(token)}
          FROM form_schemas f
          WHERE s.id = ${submissionId}::uuid AND f.id = s.schema_id AND f.organisation_id = ${actor.organisation_id}
            AND s.status = 'submitted'
          RETURNING s.id`
        if (updated.length === 0) return yield* new SubmissionNotFound({})
        yield* appendAudit(sql, actor, at, {
          action: "submission.manage_link_created",
          resource_type: "submission",
          resource_id: submissionId
        })
        return token
      }))
      : Effect.fail(new SubmissionNotFound({}))
  )

  return ShiftPlaces.of({ findManaged, cancel, issueManageLink })
})

export const SqlShiftPlaces = { layer: Layer.effect(ShiftPlaces, makeSqlShiftPlaces) } as const
