/**
 * Erasure on PostgreSQL (CONTRACT §12, the right to be forgotten): one transaction per call. The submission's
 * row is locked first, so a racing submit of the same draft either committed before (its claims and events
 * are then seen and erased) or finds no row after (404): never half of each. Slot places go with the row
 * (their foreign key cascades); claims, payload values and the contact link are removed here.
 */
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { isSqlError, type SqlError } from "effect/sql/SqlError"
import { type Actor, ContactNotFound, SubmissionErasedType, SubmissionNotFound, type Unavailable } from "@forms/domain"
import { isForeignKeyViolation, sqlFailure } from "../sql/SqlFailure.js"
import { recordEvents, wakeAfterCommit } from "../events/OutboxRecord.js"
import { isUuid } from "../sql/sqlValues.js"
import { isTransient } from "../sql/transientRetries.js"
import { appendAudit } from "../sql/appendAudit.js"
import { promoteWithMessages } from "../reminders/promoteWithMessages.js"

/**
 * A deadlock or serialization failure, or (contact erasure) a submission linked to the contact after its
 * submissions were locked: the whole transaction runs again, at once, up to 5 more times.
 */
const erasureRetries = Schedule.recurs(5).pipe(
  Schedule.while(({ input }) => isTransient(input) || (isSqlError(input) && isForeignKeyViolation(input)))
)

export const makeSqlErasure = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const wake = yield* wakeAfterCommit

  /** Inside a transaction: erases one submission of the actor's organisation; false when there is none. */
  const eraseLocked = Effect.fnUntraced(function*(actor: Actor, id: string, at: number) {
    const [row] = yield* sql<{ readonly schema_id: string; readonly contact_id: string | null }>`
      SELECT s.schema_id, s.contact_id::text AS contact_id FROM submissions s JOIN form_schemas f ON f.id = s.schema_id
      WHERE s.id = ${id}::uuid AND f.organisation_id = ${actor.organisation_id} FOR UPDATE OF s`
    if (row === undefined) return false
    yield* sql`DELETE FROM unique_claims WHERE submission_id = ${id}::uuid`
    // The convention the webhook engine relies on: only the ids stay, and `erased: true`.
    yield* sql`UPDATE outbox SET payload = (
        SELECT COALESCE(jsonb_object_agg(p.key, p.value), '{}'::jsonb) FROM jsonb_each(outbox.payload) AS p
        WHERE (p.key = 'id' OR right(p.key, 3) = '_id') AND jsonb_typeof(p.value) = 'string'
      ) || '{"erased": true}'::jsonb
      WHERE submission_id = ${id}::uuid`
    // The slots it held (read before the cascade) give their places to the earliest waiting ones (CONTRACT §22).
    const [gone] = yield* sql<{ readonly slots: ReadonlyArray<string> | null }>`DELETE FROM submissions WHERE id = ${id}::uuid
      RETURNING (SELECT array_agg(p.slot_id ORDER BY p.slot_id COLLATE "C") FROM slot_places p WHERE p.submission_id = ${id}::uuid) AS slots`
    if (gone?.slots != null && gone.slots.length > 0) {
      yield* promoteWithMessages(sql, gone.slots, new Date(at))
    }
    if (row.contact_id !== null) {
      yield* sql`SELECT 1 FROM contacts WHERE id = ${row.contact_id}::uuid FOR UPDATE`
      yield* sql`DELETE FROM contacts c WHERE c.id = ${row.contact_id}::uuid
        AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.contact_id = c.id)`
      yield* sql`UPDATE contacts SET tags = forms_contact_tags(id) WHERE id = ${row.contact_id}::uuid`
    }
    yield* recordEvents(sql, [{
      type: SubmissionErasedType,
      payload: { submission_id: id, schema_id: row.schema_id, organisation_id: actor.organisation_id }
    }], new Date(at))
    yield* appendAudit(sql, actor, at, { action: "submission.erased", resource_type: "submission", resource_id: id })
    return true
  })

  const run = <A, E>(transaction: Effect.Effect<A, E | SqlError>): Effect.Effect<A, Exclude<E, SqlError> | Unavailable> =>
    sql.withTransaction(transaction).pipe(
      Effect.retry(erasureRetries),
      Effect.catchIf(isSqlError, sqlFailure),
      Effect.tap(() => wake)
    )

  const erase = Effect.fn("SqlSubmissionRecords.erase")((actor: Actor, id: string, at: number) =>
    isUuid(id)
      ? run(Effect.gen(function*() {
        if (!(yield* eraseLocked(actor, id, at))) return yield* new SubmissionNotFound()
      }))
      : Effect.fail(new SubmissionNotFound())
  )

  const eraseContact = Effect.fn("SqlSubmissionRecords.eraseContact")((actor: Actor, id: string, at: number) =>
    isUuid(id)
      ? run(Effect.gen(function*() {
        const found = yield* sql`SELECT 1 FROM contacts WHERE id = ${id}::uuid AND organisation_id = ${actor.organisation_id}`
        if (found.length === 0) return yield* new ContactNotFound()
        // Submissions before their contact: the lock order of identity matching (forms_link_contact).
        const linked = yield* sql<{ readonly id: string }>`
          SELECT id::text AS id FROM submissions WHERE contact_id = ${id}::uuid ORDER BY id FOR UPDATE`
        for (const submission of linked) yield* eraseLocked(actor, submission.id, at)
        // A submission linked after the lock above makes this delete fail (23503): the transaction runs again.
        yield* sql`DELETE FROM contacts WHERE id = ${id}::uuid`
        yield* appendAudit(sql, actor, at, { action: "contact.erased", resource_type: "contact", resource_id: id })
      }))
      : Effect.fail(new ContactNotFound())
  )

  return { erase, eraseContact } as const
})
