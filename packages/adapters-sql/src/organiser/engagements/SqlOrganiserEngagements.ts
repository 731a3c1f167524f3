/**
 * The engagement methods of the `OrganiserArtists` port on PostgreSQL: engagements scoped by organisation, with
 * their advance sections and (found one by one) the advance draft's values; portal links issued with an audit entry.
 */
import { Effect, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  AdvanceSectionNotFound,
  EngagementNotFound,
  EngagementRecord,
  type OrganiserArtists,
  ReferenceInvalid,
  SectionSchedule
} from "@forms/domain"
import { advanceDraftKey, applySchedule, ArtistAdvanceType } from "@forms/domain/internal"
import { recordEvents } from "../../events/OutboxRecord.js"
import { setPortalToken } from "../../fixture/tokenAdmin.js"
import { advanceSectionsJson } from "../../portal/PortalContextRow.js"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { newestFirst, toPage } from "../../sql/paging.js"
import { sqlFailure } from "../../sql/SqlFailure.js"
import { asObject, epochMs } from "../../sql/sqlValues.js"
import { eventExists } from "../catalog/eventRows.js"
import { insertOwnedMessages, owned } from "../../reminders/ownedMessages.js"

/** The engagement with the stored `advance` and the advance draft's `values` (any JSON, read as objects). */
const EngagementDetailRow = Schema.Struct({ ...EngagementRecord.fields, advance: Schema.Unknown, values: Schema.Unknown })
const decodeEngagements = decodeRows(EngagementRecord)
const decodeEngagementDetails = decodeRows(EngagementDetailRow)

/** Over `engagements en`. */
const engagementColumns = `en.id, en.event_id, en.master_artist_id, en.contact_email, ${epochMs("en.created_at")} AS created_at,
  ${advanceSectionsJson} AS advance_sections`

type EngagementMethods = Pick<
  OrganiserArtists["Service"],
  | "listEngagements"
  | "createEngagement"
  | "findEngagement"
  | "updateEngagement"
  | "updateAdvanceSection"
  | "issuePortalToken"
>

/** A section's schedule as stored, decoded into the domain's record. */
const decodeSchedules = decodeRows(SectionSchedule)
const scheduleColumns = `${epochMs("due_at")} AS due_at, ${epochMs("locks_at")} AS locks_at, locked AS lock_setting`

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms))

/** `wake`: the in-process wake-up of the outbox, run after a step that recorded events has committed. */
export const makeEngagementMethods = (sql: SqlClient.SqlClient, wake: Effect.Effect<void>): EngagementMethods => {
  const enCols = sql.literal(engagementColumns)
  const selectOne = (id: string) =>
    sql`SELECT ${enCols} FROM engagements en WHERE en.id = ${id}`.pipe(
      Effect.flatMap(decodeEngagements),
      Effect.flatMap((rows) => (rows[0] === undefined ? Effect.die("the engagement was not found") : Effect.succeed(rows[0])))
    )
  return {
    listEngagements: Effect.fn("SqlOrganiserArtists.listEngagements")(
      (organisationId, page, filter) =>
        sql`SELECT ${enCols} FROM engagements en WHERE en.organisation_id = ${organisationId}
          AND (${filter.overdue_at === undefined} OR EXISTS (SELECT 1 FROM advance_sections o
            WHERE o.engagement_id = en.id AND o.status = 'pending' AND o.due_at IS NOT NULL
              AND o.due_at < ${dateOrNull(filter.overdue_at ?? null)}::timestamptz))
          AND ${newestFirst(sql, { created: "en.created_at", id: "en.id" }, page)}`.pipe(
          Effect.flatMap(decodeEngagements),
          Effect.map((rows) => toPage(rows, page.limit))
        ),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    // The event and the artist are locked FOR SHARE: neither can be deleted before this commits.
    createEngagement: Effect.fn("SqlOrganiserArtists.createEngagement")(
      (actor, input, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const org = actor.organisation_id
          if (!(yield* eventExists(sql, org, input.event_id, { lock: "FOR SHARE" }))) {
            return yield* new ReferenceInvalid({ field: "event_id" })
          }
          const artist = yield* sql`SELECT 1 FROM master_artists WHERE id = ${input.master_artist_id}
            AND organisation_id = ${org} AND deleted_at IS NULL FOR SHARE`
          if (artist.length === 0) return yield* new ReferenceInvalid({ field: "master_artist_id" })
          const inserted = yield* sql`INSERT INTO engagements (id, organisation_id, event_id, master_artist_id, contact_email, created_at)
            VALUES (gen_random_uuid()::text, ${org}, ${input.event_id}, ${input.master_artist_id}, ${input.contact_email},
              ${new Date(at)}::timestamptz)
            RETURNING id`
          const id = inserted[0]?.["id"]
          if (typeof id !== "string") return yield* Effect.die("the insert returned no row")
          for (const section of input.advance_sections) {
            // `due_set_at`: a section reminder whose moment is already past when the due date is set is never made.
            yield* sql`INSERT INTO advance_sections (id, engagement_id, name, position, due_at, locks_at, locked, due_set_at)
              VALUES (gen_random_uuid()::text, ${id}, ${section.name}, ${section.position},
                ${dateOrNull(section.due_at)}::timestamptz, ${dateOrNull(section.locks_at)}::timestamptz,
                ${section.lock_setting}::boolean, ${dateOrNull(section.due_at === null ? null : at)}::timestamptz)`
          }
          yield* appendAudit(sql, actor, at, { action: "engagement.created", resource_type: "engagement", resource_id: id })
          return yield* selectOne(id)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    updateEngagement: Effect.fn("SqlOrganiserArtists.updateEngagement")(
      (actor, id, patch, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const has = patch.contact_email !== undefined
          const updated = yield* sql`UPDATE engagements
            SET contact_email = CASE WHEN ${has} THEN ${patch.contact_email ?? null}::text ELSE contact_email END
            WHERE id = ${id} AND organisation_id = ${actor.organisation_id} RETURNING id`
          if (updated.length === 0) return yield* new EngagementNotFound()
          yield* appendAudit(sql, actor, at, { action: "engagement.updated", resource_type: "engagement", resource_id: id })
          return yield* selectOne(id)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    // The section's row is locked FOR UPDATE before its schedule is read: a section write (which checks the lock
    // in its own UPDATE of that row) is ordered with this change, before or after it, never across it.
    updateAdvanceSection: Effect.fn("SqlOrganiserArtists.updateAdvanceSection")(
      (actor, engagementId, sectionId, patch, at, events) =>
        sql.withTransaction(Effect.gen(function*() {
          const engagement = yield* sql`SELECT 1 FROM engagements WHERE id = ${engagementId}
            AND organisation_id = ${actor.organisation_id}`
          if (engagement.length === 0) return yield* new EngagementNotFound()
          const current = yield* sql`SELECT ${sql.literal(scheduleColumns)}
            FROM advance_sections WHERE id = ${sectionId} AND engagement_id = ${engagementId} FOR UPDATE`.pipe(
            Effect.flatMap(decodeSchedules)
          )
          const before = current[0]
          if (before === undefined) return yield* new AdvanceSectionNotFound()
          const after = applySchedule(before, patch)
          yield* sql`UPDATE advance_sections SET due_at = ${dateOrNull(after.due_at)}::timestamptz,
              due_set_at = CASE WHEN due_at IS DISTINCT FROM ${dateOrNull(after.due_at)}::timestamptz
                THEN ${new Date(at)}::timestamptz ELSE due_set_at END,
              locks_at = ${dateOrNull(after.locks_at)}::timestamptz, locked = ${after.lock_setting}::boolean
            WHERE id = ${sectionId}`
          yield* appendAudit(sql, actor, at, {
            action: "engagement_section.updated",
            resource_type: "engagement",
            resource_id: engagementId
          })
          const recorded = events(before, after)
          yield* recordEvents(sql, recorded, new Date(at))
          return { engagement: yield* selectOne(engagementId), woke: recorded.length > 0 }
        })),
      Effect.tap(({ woke }) => (woke ? wake : Effect.void)),
      Effect.map(({ engagement }) => engagement),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    // `values`: the advance draft (key `artist_advance:{id}` in the organisation's artist_advance schema).
    findEngagement: Effect.fn("SqlOrganiserArtists.findEngagement")(
      (organisationId, id) =>
        sql`SELECT ${enCols}, en.advance,
            COALESCE((SELECT s.values FROM submissions s JOIN form_schemas f ON f.id = s.schema_id
              WHERE f.organisation_id = en.organisation_id AND f.type = ${ArtistAdvanceType}
                AND s.idempotency_key = ${advanceDraftKey(id)} LIMIT 1), '{}'::jsonb) AS values
          FROM engagements en WHERE en.id = ${id} AND en.organisation_id = ${organisationId}`,
      Effect.flatMap(decodeEngagementDetails),
      Effect.map((rows) =>
        Option.map(Option.fromUndefinedOr(rows[0]), (row) => ({
          ...row,
          advance: asObject(row.advance),
          values: asObject(row.values)
        }))
      ),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    // The CLI's own path (setPortalToken: hash only), inside one transaction with the audit entry.
    issuePortalToken: Effect.fn("SqlOrganiserArtists.issuePortalToken")(
      (actor, engagementId, token, at, messages = []) =>
        sql.withTransaction(Effect.gen(function*() {
          const found = yield* sql`SELECT organisation_id FROM engagements WHERE id = ${engagementId}
            AND (${actor === undefined} OR organisation_id = ${actor?.organisation_id ?? null}) FOR UPDATE`
          const organisationId = found[0]?.["organisation_id"]
          if (typeof organisationId !== "string") return yield* new EngagementNotFound()
          yield* setPortalToken(engagementId, token, at).pipe(
            Effect.provideService(SqlClient.SqlClient, sql),
            Effect.catchTags({ TokenRejected: Effect.die, RecordNotFound: () => Effect.fail(new EngagementNotFound()) })
          )
          yield* appendAudit(sql, actor ?? { organisation_id: organisationId, api_key_id: null }, at, {
            action: "engagement.portal_link_created",
            resource_type: "engagement",
            resource_id: engagementId
          })
          if (messages.length > 0) {
            const owner = { organisation_id: organisationId, submission_id: null, engagement_id: engagementId }
            yield* insertOwnedMessages(sql, messages.map((message) => owned(owner, message)), new Date(at))
          }
        })),
      Effect.catchTag("SqlError", sqlFailure)
    )
  }
}
