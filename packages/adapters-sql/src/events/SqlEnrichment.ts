/** The `Enrichment` port on PostgreSQL: submission tags and contacts, each method one statement (a batch too). */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { Contact, Enrichment, type LinkContact, type SubmissionTags } from "@forms/domain"
import { compareStrings } from "@forms/domain/internal"
import { decodeRows } from "../sql/decodeRows.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { isUuid, jsonText, sortedTags, tagsOf } from "../sql/sqlValues.js"
import { transientRetries } from "../sql/transientRetries.js"

const decodeContacts = decodeRows(Contact)
/** The database keeps a contact's tags in code point order; the port's order is by code unit (CONTRACT §2). */
const toContacts = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<Contact>> =>
  decodeContacts(rows).pipe(
    Effect.map((contacts) => contacts.map((contact) => ({ ...contact, tags: sortedTags(contact.tags) })))
  )

const contactColumns = "id::text AS id, organisation_id, key, tags"

/**
 * Each write is one statement calling a function of migration 4, which keeps the locking order: the
 * submission's row lock, then the contacts' (in id order), then a contact's tags recomputed by a statement
 * that starts after its lock was taken, so it sees every committed change and no one else's is pending.
 */
export const makeSqlEnrichment = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** A deadlock or serialization failure is tried again (up to 3 times); other errors as `sqlFailure` says. */
  const write = <A>(statement: Effect.Effect<A, SqlError>) =>
    statement.pipe(Effect.retry(transientRetries), Effect.catchTag("SqlError", sqlFailure))

  const setSubmissionTags = Effect.fn("SqlEnrichment.setSubmissionTags")(
    function*(submissionId: string, tags: ReadonlyArray<string>) {
      if (!isUuid(submissionId)) return
      yield* write(sql`SELECT forms_set_submission_tags(${submissionId}::uuid, ${jsonText(sortedTags(tags))}::jsonb)`)
    }
  )

  const linkContact = Effect.fn("SqlEnrichment.linkContact")(
    (link: LinkContact) => {
      const submissionId = isUuid(link.submission_id) ? link.submission_id : null
      return write(sql`SELECT ${sql.literal(contactColumns)}
        FROM forms_link_contact(${link.organisation_id}, ${link.key}, ${submissionId}::uuid)`)
    },
    Effect.flatMap(toContacts),
    Effect.flatMap((rows) =>
      rows[0] === undefined ? Effect.die(new Error("forms_link_contact returned no contact")) : Effect.succeed(rows[0])
    )
  )

  // One statement for the batch (migration 14); a submission id that is no UUID names no submission: skipped.
  const setSubmissionTagsMany = Effect.fn("SqlEnrichment.setSubmissionTagsMany")(
    function*(items: ReadonlyArray<SubmissionTags>) {
      const valid = items.filter((item) => isUuid(item.submission_id))
      if (valid.length === 0) return
      yield* write(sql`SELECT forms_set_submission_tags_many(${
        jsonText(valid.map((item) => ({ submission_id: item.submission_id, tags: sortedTags(item.tags) })))
      }::jsonb)`)
    }
  )

  // One statement for the batch (migration 14). A link whose submission id is no UUID links nothing: its
  // contact is only found or created, as `linkContact` does, on its own.
  const linkContacts = Effect.fn("SqlEnrichment.linkContacts")(function*(links: ReadonlyArray<LinkContact>) {
    const valid = links.filter((link) => isUuid(link.submission_id))
    if (valid.length > 0) {
      yield* write(sql`SELECT forms_link_contacts(${
        jsonText(valid.map((link) => ({ organisation_id: link.organisation_id, key: link.key, submission_id: link.submission_id })))
      }::jsonb)`)
    }
    yield* Effect.forEach(links.filter((link) => !isUuid(link.submission_id)), linkContact, { discard: true })
  })

  const submissionTags = Effect.fn("SqlEnrichment.submissionTags")(
    (submissionId: string) =>
      isUuid(submissionId)
        ? sql<{ readonly tags: unknown }>`SELECT tags FROM submissions WHERE id = ${submissionId}::uuid`.pipe(
          Effect.map((rows) => tagsOf(rows[0]?.tags))
        )
        : Effect.succeed<ReadonlyArray<string>>([]),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const contactOfSubmission = Effect.fn("SqlEnrichment.contactOfSubmission")(
    (submissionId: string) =>
      isUuid(submissionId)
        ? sql`SELECT c.id::text AS id, c.organisation_id, c.key, c.tags
              FROM submissions s JOIN contacts c ON c.id = s.contact_id WHERE s.id = ${submissionId}::uuid`.pipe(
          Effect.flatMap(toContacts),
          Effect.map((rows) => Option.fromNullishOr(rows[0]))
        )
        : Effect.succeed(Option.none<Contact>()),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const contacts = Effect.fn("SqlEnrichment.contacts")(
    (organisationId: string) =>
      sql`SELECT ${sql.literal(contactColumns)} FROM contacts WHERE organisation_id = ${organisationId}`,
    Effect.flatMap(toContacts),
    Effect.map((rows) => [...rows].sort((a, b) => compareStrings(a.key, b.key))),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return Enrichment.of({ setSubmissionTags, setSubmissionTagsMany, linkContact, linkContacts, submissionTags, contactOfSubmission, contacts })
})

export const SqlEnrichment = {
  layer: Layer.effect(Enrichment, makeSqlEnrichment)
} as const
