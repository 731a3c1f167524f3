/** The `Submissions` port on PostgreSQL: each method is one statement or one transaction. */
import { Clock, Data, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import {
  AlreadySubmitted,
  RevisionChanged,
  type NewDraft,
  type ChosenSlot,
  SlotsRefused,
  type Submission,
  SubmissionNotFound,
  Submissions,
  type SubmitCommand,
  type Unavailable,
  UniqueTaken,
  VersionConflict
} from "@forms/domain"
import { isForeignKeyViolation, sqlFailure } from "../sql/SqlFailure.js"
import { claimId, digestClaims } from "./claimDigest.js"
import { eventsJson, outboxChannel, wakeAfterCommit } from "../events/OutboxRecord.js"
import { submissionColumns, toSubmissions } from "./SubmissionRow.js"
import { isUuid, jsonText } from "../sql/sqlValues.js"
import { atRevision, revisionMoved } from "../sql/revisionCheck.js"
import { insertMessages } from "../messages/messageRecord.js"
import { scheduleShiftReminders } from "../reminders/scheduleShiftReminders.js"
import { lostClaimsConstraint, submitStatement } from "./submitStatement.js"
import { transientRetries } from "../sql/transientRetries.js"
import { withPlacesTaken } from "@forms/domain/internal"
import { hashManageToken, newManageToken } from "../shifts/manageToken.js"

const first = (rows: ReadonlyArray<Submission>): Option.Option<Submission> => Option.fromNullishOr(rows[0])

const isLostClaims = (error: SqlError): boolean =>
  error.reason._tag === "UniqueViolation" && error.reason.constraint === lostClaimsConstraint

/** The insert of a draft met a conflicting key whose row was gone by the time it was read (erased meanwhile). */
class DraftVanished extends Data.TaggedError("DraftVanished") {}

/** A draft's insert is tried again when the winner of its key vanished: up to 3 inserts in all, at once. */
const vanishedDraftRetries = Schedule.recurs(2).pipe(Schedule.while(({ input }) => input instanceof DraftVanished))

export const makeSqlSubmissions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const wake = yield* wakeAfterCommit
  const columns = sql.literal(submissionColumns)

  /**
   * A submission by id, in its schema. Statements keyed by a submission's id test the rest of their row with
   * `IS NOT DISTINCT FROM` (the same as `=` on these NOT NULL columns), which no index serves: the primary
   * key is then the only index the planner can use. With `=`, the generic plan that PostgreSQL caches for a
   * prepared statement, planned while the table was new and small, used an index on `schema_id`
   * (or the partial index of drafts) and then scanned a whole form's submissions on every call as the
   * table grew, until an ANALYZE: 0.46 ms instead of 0.03 per lookup, half of the database's time (issue 23).
   */
  const selectInSchema = (schemaId: string, id: string) =>
    isUuid(id)
      ? sql`SELECT ${columns} FROM submissions WHERE id = ${id}::uuid AND schema_id IS NOT DISTINCT FROM ${schemaId}`.pipe(
        Effect.flatMap(toSubmissions),
        Effect.map(first)
      )
      : Effect.succeed(Option.none<Submission>())

  const selectByKey = (schemaId: string, key: string) =>
    sql`SELECT ${columns} FROM submissions WHERE schema_id = ${schemaId} AND idempotency_key = ${key}`.pipe(
      Effect.flatMap(toSubmissions),
      Effect.map(first)
    )

  /** One insert of the draft, or the winner of its key; `DraftVanished` when neither is there. */
  const insertOrGet = Effect.fnUntraced(function*(draft: NewDraft) {
    const now = new Date(yield* Clock.currentTimeMillis)
    const inserted = yield* sql`
      INSERT INTO submissions (schema_id, idempotency_key, values, event_id, subject_id, language, created_at, updated_at)
      SELECT ${draft.schema_id}, ${draft.idempotency_key}, ${jsonText(draft.values)}::jsonb, ${draft.event_id},
              ${draft.subject_id}, ${draft.language}, ${now}::timestamptz, ${now}::timestamptz
      WHERE ${atRevision(sql, draft.schema_id, draft.revision)}
      ON CONFLICT (schema_id, idempotency_key) DO NOTHING
      RETURNING ${columns}`.pipe(Effect.flatMap(toSubmissions))
    const created = inserted[0]
    if (created !== undefined) return { submission: created, created: true }
    // Lost the race (or a replay): the winner is committed by now. It may have been erased since (an
    // organiser's erasure, CONTRACT §12): the key is free again, so the insert is tried once more.
    const existing = yield* selectByKey(draft.schema_id, draft.idempotency_key)
    if (Option.isNone(existing)) {
      // No row and no conflict: the form left the revision the values were validated against.
      if (draft.revision !== undefined && (yield* revisionMoved(sql, draft.schema_id, draft.revision))) {
        return yield* new RevisionChanged()
      }
      return yield* new DraftVanished()
    }
    return { submission: existing.value, created: false }
  })

  const createOrGet = Effect.fn("SqlSubmissions.createOrGet")(
    (draft: NewDraft) =>
      insertOrGet(draft).pipe(
        Effect.retry(vanishedDraftRetries),
        Effect.catchTag("DraftVanished", () => Effect.die(new Error("The conflicting draft vanished three times")))
      ),
    // The form was deleted since the use case read it (its schema cache may lag a delete by moments): the
    // foreign key refuses the draft. As for a changed revision, the use case reads the form again (404).
    Effect.catchTag("SqlError", (error): Effect.Effect<never, Unavailable | RevisionChanged> =>
      isForeignKeyViolation(error) ? Effect.fail(new RevisionChanged()) : sqlFailure(error))
  )

  const findByKey = Effect.fn("SqlSubmissions.findByKey")(
    (schemaId: string, key: string) => selectByKey(schemaId, key),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const findInSchema = Effect.fn("SqlSubmissions.findInSchema")(
    (schemaId: string, id: string) => selectInSchema(schemaId, id),
    Effect.catchTag("SqlError", sqlFailure)
  )

  /** Why a conditional update touched no row: unknown, submitted, the form changed, or (for submit) a newer version. */
  const explainMiss = Effect.fnUntraced(function*(schemaId: string, id: string, revision: number | undefined) {
    const current = yield* selectInSchema(schemaId, id)
    if (Option.isNone(current)) return yield* new SubmissionNotFound({})
    if (current.value.status === "submitted") return yield* new AlreadySubmitted({})
    if (revision !== undefined && (yield* revisionMoved(sql, schemaId, revision))) return yield* new RevisionChanged()
    return yield* new VersionConflict({})
  })

  const save = Effect.fn("SqlSubmissions.save")(
    function*(schemaId: string, id: string, patch: Readonly<Record<string, unknown>>, revision?: number, language?: string) {
      if (!isUuid(id)) return yield* new SubmissionNotFound({})
      const now = new Date(yield* Clock.currentTimeMillis)
      const rows = yield* sql`
        UPDATE submissions
        SET values = values || ${jsonText(patch)}::jsonb, auto_save_count = auto_save_count + 1,
            version = version + 1, updated_at = ${now}::timestamptz, language = COALESCE(${language ?? null}::text, language)
        WHERE id = ${id}::uuid AND schema_id IS NOT DISTINCT FROM ${schemaId} AND status IS NOT DISTINCT FROM 'draft'
          AND ${atRevision(sql, schemaId, revision)}
        RETURNING ${columns}`.pipe(Effect.flatMap(toSubmissions))
      const saved = rows[0]
      if (saved !== undefined) return saved
      return yield* explainMiss(schemaId, id, revision).pipe(
        // A draft that the update did not match cannot exist (a status never returns to draft).
        Effect.catchTag("VersionConflict", (error) => Effect.die(error))
      )
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  /**
   * The unique claims and the outbox events (with their NOTIFY) in one statement, after the submission's
   * update in the same transaction. A lost claim fails with `UniqueTaken`, which rolls the transaction back.
   */
  const claimAndRecord = Effect.fnUntraced(function*(command: SubmitCommand, events: SubmitCommand["events"], at: Date) {
    const claims = digestClaims(command.claims)
    if (claims.length === 0 && events.length === 0) return
    // Claims are keyed by the digest of the value (claimDigest.ts): a long value never meets the index limit.
    const [row] = yield* sql<{ readonly won: ReadonlyArray<readonly [string, string]> }>`
      WITH claimed AS (
        INSERT INTO unique_claims (schema_id, field_slug, value_digest, submission_id)
        SELECT ${command.schema_id}, c.slug, decode(c.digest, 'hex'), ${command.id}::uuid
        FROM unnest(${claims.map((c) => c.slug)}::text[], ${claims.map((c) => c.digest)}::text[])
          WITH ORDINALITY AS c (slug, digest, n)
        ORDER BY c.n
        ON CONFLICT DO NOTHING
        RETURNING field_slug, encode(value_digest, 'hex') AS digest
      ), recorded AS (
        INSERT INTO outbox (type, payload, available_at, created_at)
        SELECT e.event->>'type', e.event->'payload', ${at}::timestamptz, ${at}::timestamptz
        FROM jsonb_array_elements(${eventsJson(events)}::jsonb) WITH ORDINALITY AS e (event, n)
        ORDER BY e.n
      )
      SELECT COALESCE((SELECT json_agg(json_build_array(field_slug, digest)) FROM claimed), '[]'::json) AS won,
        (SELECT pg_notify(${outboxChannel}, current_schema()) WHERE ${events.length}::int > 0) AS notified`
    const wonKeys = new Set((row?.won ?? []).map(([slug, digest]) => claimId(slug, digest)))
    const lost = new Set(claims.filter((c) => !wonKeys.has(claimId(c.slug, c.digest))).map((c) => c.slug))
    // In the order of the command's claims (field order), each slug once.
    if (lost.size === 0) return
    return yield* new UniqueTaken({ slugs: [...new Set(command.claims.map((c) => c.slug))].filter((s) => lost.has(s)) })
  })

  /**
   * The places of the submit, in one statement (migration 0013, `forms_take_places`: locks in id order, then
   * takes and counts); the domain decides on the slots as held, and a refusal rolls the transaction back.
   */
  const takePlaces = Effect.fnUntraced(function*(command: SubmitCommand) {
    const places = command.places
    if (places === undefined || places.slot_ids.length === 0) return command.events
    // The function runs once (a materialised CTE); the slots' names, for the `full` message, are read beside it.
    const held = yield* sql<ChosenSlot>`WITH held AS MATERIALIZED (
        SELECT * FROM forms_take_places(${command.id}::uuid, ${[...places.slot_ids]}::text[], ${new Date(command.submitted_at)}::timestamptz)
      )
      SELECT h.id, t.name, h.event_id, h.parent_event_id, h.date, h.start_time, h.end_time, h.starts_at, h.ends_at,
        h.signup_opens_at, h.signup_closes_at, h.capacity, h.holders, h.waitlist, h.waitlisted, h.place
      FROM held h JOIN time_slots t ON t.id = h.id`
    const decoded = held.map((slot): ChosenSlot => ({
      ...slot,
      starts_at: Number(slot.starts_at),
      ends_at: Number(slot.ends_at),
      signup_opens_at: slot.signup_opens_at === null ? null : Number(slot.signup_opens_at),
      signup_closes_at: slot.signup_closes_at === null ? null : Number(slot.signup_closes_at),
      holders: Number(slot.holders),
      waitlisted: Number(slot.waitlisted)
    }))
    const refused = places.decide(decoded)
    if (refused !== undefined) return yield* new SlotsRefused({ fields: refused })
    return withPlacesTaken(command.events, decoded)
  })

  /** The submit's conditional update (draft, at the version read, the form at its revision), in both ways to submit. */
  const submitUpdate = (command: SubmitCommand, at: Date, manageHash: string | null) =>
    sql`UPDATE submissions
        SET status = 'submitted', values = ${jsonText(command.values)}::jsonb, submitted_at = ${at}::timestamptz,
            updated_at = ${at}::timestamptz, version = version + 1, manage_token_hash = ${manageHash},
            language = COALESCE(${command.language ?? null}::text, language)
        WHERE id = ${command.id}::uuid AND schema_id IS NOT DISTINCT FROM ${command.schema_id} AND status IS NOT DISTINCT FROM 'draft'
          AND version = ${command.expected_version} AND ${atRevision(sql, command.schema_id, command.revision)}
        RETURNING ${columns}`

  const submitOnce = (command: SubmitCommand, manageHash: string | null) =>
    sql.withTransaction(Effect.gen(function*() {
      if (!isUuid(command.id)) return yield* new SubmissionNotFound({})
      const at = new Date(command.submitted_at)
      const rows = yield* submitUpdate(command, at, manageHash).pipe(Effect.flatMap(toSubmissions))
      const submitted = rows[0]
      if (submitted === undefined) return yield* explainMiss(command.schema_id, command.id, command.revision)
      // The places first: the submitted event carries the places taken (CONTRACT §22).
      const events = yield* takePlaces(command)
      yield* claimAndRecord(command, events, at)
      if ((command.messages ?? []).length > 0) yield* insertMessages(sql, command, at, false)
      if ((command.reminders ?? []).length > 0) yield* scheduleShiftReminders(sql, command.id, command.reminders ?? [])
      return submitted
    }))

  /**
   * No places to take: the submit as one statement (submitStatement.ts). When a claim was lost, that statement
   * failed and undid everything; the submit then runs as the transaction, which answers which values are taken.
   */
  const submitInOneStatement = Effect.fnUntraced(
    function*(command: SubmitCommand, manageHash: string | null) {
      if (!isUuid(command.id)) return yield* new SubmissionNotFound({})
      const at = new Date(command.submitted_at)
      const rows = yield* submitStatement(sql, submitUpdate(command, at, manageHash), command, digestClaims(command.claims), at).pipe(
        Effect.flatMap(toSubmissions)
      )
      const submitted = rows[0]
      if (submitted === undefined) return yield* explainMiss(command.schema_id, command.id, command.revision)
      return submitted
    },
    (effect, command, manageHash) =>
      Effect.catchTag(effect, "SqlError", (error) => isLostClaims(error) ? submitOnce(command, manageHash) : Effect.fail(error))
  )

  /** The submit, with a new manage token when it asks for one (CONTRACT §22): its hash stored, the token answered. */
  const submitManaged = (command: SubmitCommand) =>
    Effect.suspend(() => {
      const token = command.manage === true ? newManageToken() : undefined
      const hash = token === undefined ? null : hashManageToken(token)
      const submitted = command.places === undefined || command.places.slot_ids.length === 0
        ? submitInOneStatement(command, hash)
        : submitOnce(command, hash)
      return token === undefined ? submitted : Effect.map(submitted, (s): Submission => ({ ...s, manage_token: token }))
    })

  const submit = Effect.fn("SqlSubmissions.submit")((command: SubmitCommand) =>
    submitManaged(command).pipe(
      Effect.retry(transientRetries),
      Effect.catchTag("SqlError", (error): Effect.Effect<never, UniqueTaken | Unavailable> =>
        // The claims' primary key is the last word on uniqueness: a violation is a taken value, never a 500.
        error.reason._tag === "UniqueViolation" && error.reason.constraint.startsWith("unique_claims")
          ? Effect.fail(new UniqueTaken({ slugs: [...new Set(command.claims.map((c) => c.slug))] }))
          : sqlFailure(error)),
      Effect.tap(() => (command.events.length > 0 ? wake : Effect.void))
    )
  )

  return Submissions.of({ createOrGet, findByKey, findInSchema, save, submit })
})

export const SqlSubmissions = {
  layer: Layer.effect(Submissions, makeSqlSubmissions)
} as const
