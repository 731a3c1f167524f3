/** The `Enrichment` port on PostgreSQL: submission tags and contacts, each method one transaction. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { compareStrings, type Contact, Enrichment, type LinkContact } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { isUuid, jsonText } from "./SubmissionRow.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanSubmissionTags = Effect.withSpan("SqlEnrichment.submissionTags")
const spanContactOfSubmission = Effect.withSpan("SqlEnrichment.contactOfSubmission")
const spanContacts = Effect.withSpan("SqlEnrichment.contacts")

const ContactRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  key: Schema.String,
  tags: Schema.Array(Schema.String)
})
const decodeContacts = Schema.decodeUnknownEffect(Schema.Array(ContactRow))
const toContacts = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<Contact>> => Effect.orDie(decodeContacts(rows))

const contactColumns = "id::text AS id, organisation_id, key, tags"

const tagsOf = (json: unknown): ReadonlyArray<string> =>
  Array.isArray(json) ? json.filter((tag): tag is string => typeof tag === "string") : []

/** A set sorted by code unit (CONTRACT §2), as the in-memory adapter keeps it; `COLLATE "C"` sorts by code point. */
const sortedSet = (tags: Iterable<string>): ReadonlyArray<string> => [...new Set(tags)].sort(compareStrings)

const isRetryable = (error: SqlError): boolean =>
  error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError"

/**
 * Locking: every change to a submission's tags or contact takes the submission's row lock, then the row locks
 * of the contacts involved (in id order). A contact's tags are recomputed while its lock is held, by a
 * statement that starts after it was taken, so it sees every committed change and no one else's is pending.
 */
export const makeSqlEnrichment = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const lockSubmission = (submissionId: string) =>
    Effect.map(
      sql<{ readonly contact_id: string | null }>`
        SELECT contact_id::text AS contact_id FROM submissions WHERE id = ${submissionId}::uuid FOR UPDATE`,
      (rows) => Option.fromNullishOr(rows[0])
    )

  const lockContacts = (ids: ReadonlyArray<string>) =>
    sql`SELECT id FROM contacts WHERE id = ANY(${[...new Set(ids)]}::uuid[]) ORDER BY id FOR UPDATE`

  /** The union of the tags of the contact's submissions becomes the contact's tags. */
  const recompute = (contactId: string) =>
    Effect.gen(function*() {
      const rows = yield* sql<{ readonly tags: unknown }>`SELECT tags FROM submissions WHERE contact_id = ${contactId}::uuid`
      const tags = sortedSet(rows.flatMap((row) => tagsOf(row.tags)))
      const updated = yield* sql`UPDATE contacts SET tags = ${jsonText(tags)}::jsonb WHERE id = ${contactId}::uuid
        RETURNING ${sql.literal(contactColumns)}`.pipe(Effect.flatMap(toContacts))
      return Option.fromNullishOr(updated[0])
    })

  const transaction = <A, R>(name: string, effect: Effect.Effect<A, SqlError, R>) =>
    sql.withTransaction(effect).pipe(
      Effect.retry({ times: 3, while: isRetryable }),
      Effect.catchTag("SqlError", sqlFailure),
      Effect.withSpan(name)
    )

  const setSubmissionTags = (submissionId: string, tags: ReadonlyArray<string>) =>
    isUuid(submissionId)
      ? transaction("SqlEnrichment.setSubmissionTags", Effect.gen(function*() {
        const locked = yield* lockSubmission(submissionId)
        if (Option.isNone(locked)) return
        const contactId = locked.value.contact_id
        if (contactId !== null) yield* lockContacts([contactId])
        yield* sql`UPDATE submissions SET tags = ${jsonText(sortedSet(tags))}::jsonb WHERE id = ${submissionId}::uuid`
        if (contactId !== null) yield* recompute(contactId)
      }))
      : Effect.void

  const linkContact = (link: LinkContact) =>
    transaction("SqlEnrichment.linkContact", Effect.gen(function*() {
      const locked = isUuid(link.submission_id) ? yield* lockSubmission(link.submission_id) : Option.none()
      // DO NOTHING waits for a racing insert of the same key to commit: the second caller then reads its row.
      yield* sql`INSERT INTO contacts (organisation_id, key) VALUES (${link.organisation_id}, ${link.key})
        ON CONFLICT (organisation_id, key) DO NOTHING`
      const found = yield* sql<{ readonly id: string }>`
        SELECT id::text AS id FROM contacts WHERE organisation_id = ${link.organisation_id} AND key = ${link.key}`
      const contactId = found[0]?.id
      if (contactId === undefined) return yield* Effect.die(new Error("The contact upsert left no row"))
      const previous = Option.isSome(locked) ? locked.value.contact_id : null
      yield* lockContacts(previous === null ? [contactId] : [contactId, previous])
      if (Option.isSome(locked) && previous !== contactId) {
        yield* sql`UPDATE submissions SET contact_id = ${contactId}::uuid WHERE id = ${link.submission_id}::uuid`
        if (previous !== null) yield* recompute(previous)
      }
      const contact = yield* recompute(contactId)
      if (Option.isNone(contact)) return yield* Effect.die(new Error("The contact vanished"))
      return contact.value
    }))

  const submissionTags = (submissionId: string) =>
    isUuid(submissionId)
      ? sql<{ readonly tags: unknown }>`SELECT tags FROM submissions WHERE id = ${submissionId}::uuid`.pipe(
        Effect.map((rows) => tagsOf(rows[0]?.tags)),
        Effect.catchTag("SqlError", sqlFailure),
        spanSubmissionTags
      )
      : Effect.succeed<ReadonlyArray<string>>([])

  const contactOfSubmission = (submissionId: string) =>
    isUuid(submissionId)
      ? sql`SELECT c.id::text AS id, c.organisation_id, c.key, c.tags
            FROM submissions s JOIN contacts c ON c.id = s.contact_id WHERE s.id = ${submissionId}::uuid`.pipe(
        Effect.flatMap(toContacts),
        Effect.map((rows) => Option.fromNullishOr(rows[0])),
        Effect.catchTag("SqlError", sqlFailure),
        spanContactOfSubmission
      )
      : Effect.succeed(Option.none<Contact>())

  const contacts = (organisationId: string) =>
    sql`SELECT ${sql.literal(contactColumns)} FROM contacts WHERE organisation_id = ${organisationId}`.pipe(
      Effect.flatMap(toContacts),
      Effect.map((rows) => [...rows].sort((a, b) => compareStrings(a.key, b.key))),
      Effect.catchTag("SqlError", sqlFailure),
      spanContacts
    )

  return Enrichment.of({ setSubmissionTags, linkContact, submissionTags, contactOfSubmission, contacts })
})

export const SqlEnrichment = {
  layer: Layer.effect(Enrichment, makeSqlEnrichment)
} as const
