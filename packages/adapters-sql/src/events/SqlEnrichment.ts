/** The `Enrichment` port on PostgreSQL: submission tags and contacts, each method one statement (a batch too). */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { type Contact, Enrichment, type LinkContact, type SubmissionTags } from "@forms/domain"
import { compareStrings } from "@forms/domain/internal"
import { sqlFailure } from "../sql/SqlFailure.js"
import { isUuid, jsonText } from "../sql/sqlValues.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanSetSubmissionTags = Effect.withSpan("SqlEnrichment.setSubmissionTags")
const spanLinkContact = Effect.withSpan("SqlEnrichment.linkContact")
const spanSetSubmissionTagsMany = Effect.withSpan("SqlEnrichment.setSubmissionTagsMany")
const spanLinkContacts = Effect.withSpan("SqlEnrichment.linkContacts")
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
/** The database keeps a contact's tags in code point order; the port's order is by code unit (CONTRACT §2). */
const toContacts = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<Contact>> =>
  decodeContacts(rows).pipe(
    Effect.map((contacts) => contacts.map((contact) => ({ ...contact, tags: sortedSet(contact.tags) }))),
    Effect.orDie
  )

const contactColumns = "id::text AS id, organisation_id, key, tags"

const tagsOf = (json: unknown): ReadonlyArray<string> =>
  Array.isArray(json) ? json.filter((tag): tag is string => typeof tag === "string") : []

/** A set sorted by code unit (CONTRACT §2), as the in-memory adapter keeps it; `COLLATE "C"` sorts by code point. */
const sortedSet = (tags: Iterable<string>): ReadonlyArray<string> => [...new Set(tags)].sort(compareStrings)

const isRetryable = (error: SqlError): boolean =>
  error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError"

/**
 * Each write is one statement calling a function of migration 4, which keeps the locking order: the
 * submission's row lock, then the contacts' (in id order), then a contact's tags recomputed by a statement
 * that starts after its lock was taken, so it sees every committed change and no one else's is pending.
 */
export const makeSqlEnrichment = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** A deadlock or serialization failure is tried again (up to 3 times); other errors as `sqlFailure` says. */
  const write = <A>(statement: Effect.Effect<A, SqlError>) =>
    statement.pipe(Effect.retry({ times: 3, while: isRetryable }), Effect.catchTag("SqlError", sqlFailure))

  const setSubmissionTags = (submissionId: string, tags: ReadonlyArray<string>) =>
    isUuid(submissionId)
      ? write(sql`SELECT forms_set_submission_tags(${submissionId}::uuid, ${jsonText(sortedSet(tags))}::jsonb)`).pipe(
        Effect.asVoid,
        spanSetSubmissionTags
      )
      : Effect.void

  const linkContact = (link: LinkContact) => {
    const submissionId = isUuid(link.submission_id) ? link.submission_id : null
    return write(sql`SELECT ${sql.literal(contactColumns)}
      FROM forms_link_contact(${link.organisation_id}, ${link.key}, ${submissionId}::uuid)`).pipe(
      Effect.flatMap(toContacts),
      Effect.flatMap((rows) =>
        rows[0] === undefined ? Effect.die(new Error("forms_link_contact returned no contact")) : Effect.succeed(rows[0])
      ),
      spanLinkContact
    )
  }

  // One statement for the batch (migration 14); a submission id that is no UUID names no submission: skipped.
  const setSubmissionTagsMany = (items: ReadonlyArray<SubmissionTags>) => {
    const valid = items.filter((item) => isUuid(item.submission_id))
    return valid.length === 0
      ? Effect.void
      : write(sql`SELECT forms_set_submission_tags_many(${
        jsonText(valid.map((item) => ({ submission_id: item.submission_id, tags: sortedSet(item.tags) })))
      }::jsonb)`).pipe(Effect.asVoid, spanSetSubmissionTagsMany)
  }

  // One statement for the batch (migration 14). A link whose submission id is no UUID links nothing: its
  // contact is only found or created, as `linkContact` does, on its own.
  const linkContacts = (links: ReadonlyArray<LinkContact>) => {
    const valid = links.filter((link) => isUuid(link.submission_id))
    const batch = valid.length === 0
      ? Effect.void
      : write(sql`SELECT forms_link_contacts(${
        jsonText(valid.map((link) => ({ organisation_id: link.organisation_id, key: link.key, submission_id: link.submission_id })))
      }::jsonb)`).pipe(Effect.asVoid, spanLinkContacts)
    return Effect.andThen(batch, Effect.forEach(links.filter((link) => !isUuid(link.submission_id)), linkContact, { discard: true }))
  }

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

  return Enrichment.of({ setSubmissionTags, setSubmissionTagsMany, linkContact, linkContacts, submissionTags, contactOfSubmission, contacts })
})

export const SqlEnrichment = {
  layer: Layer.effect(Enrichment, makeSqlEnrichment)
} as const
