/**
 * The engagement methods of the `OrganiserArtists` port on PostgreSQL: engagements scoped by organisation, with
 * their advance sections and (found one by one) the advance draft's values; portal links issued with an audit entry.
 */
import { Effect, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { AdminEngagement, EngagementNotFound, type OrganiserArtists, ReferenceInvalid } from "@forms/domain"
import { advanceDraftKey, ArtistAdvanceType } from "@forms/domain/internal"
import { setPortalToken } from "../../fixture/tokenAdmin.js"
import { advanceSectionsJson } from "../../portal/PortalContextRow.js"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { newestFirst, toPage } from "../../sql/paging.js"
import { sqlFailure } from "../../sql/SqlFailure.js"
import { asObject, epochMs } from "../../sql/sqlValues.js"
import { eventExists } from "../catalog/eventRows.js"

/** The engagement with the stored `advance` and the advance draft's `values` (any JSON, read as objects). */
const EngagementDetailRow = Schema.Struct({ ...AdminEngagement.fields, advance: Schema.Unknown, values: Schema.Unknown })
const decodeEngagements = decodeRows(AdminEngagement)
const decodeEngagementDetails = decodeRows(EngagementDetailRow)

/** Over `engagements en`. */
const engagementColumns = `en.id, en.event_id, en.master_artist_id, ${epochMs("en.created_at")} AS created_at,
  ${advanceSectionsJson} AS advance_sections`

type EngagementMethods = Pick<
  OrganiserArtists["Service"],
  "listEngagements" | "createEngagement" | "findEngagement" | "issuePortalToken"
>

export const makeEngagementMethods = (sql: SqlClient.SqlClient): EngagementMethods => {
  const enCols = sql.literal(engagementColumns)
  return {
    listEngagements: Effect.fn("SqlOrganiserArtists.listEngagements")(
      (organisationId, page) =>
        sql`SELECT ${enCols} FROM engagements en WHERE en.organisation_id = ${organisationId}
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
          const inserted = yield* sql`INSERT INTO engagements (id, organisation_id, event_id, master_artist_id, created_at)
            VALUES (gen_random_uuid()::text, ${org}, ${input.event_id}, ${input.master_artist_id}, ${new Date(at)}::timestamptz)
            RETURNING id`
          const id = inserted[0]?.["id"]
          if (typeof id !== "string") return yield* Effect.die("the insert returned no row")
          for (const section of input.advance_sections) {
            yield* sql`INSERT INTO advance_sections (id, engagement_id, name, position)
              VALUES (gen_random_uuid()::text, ${id}, ${section.name}, ${section.position})`
          }
          yield* appendAudit(sql, actor, at, { action: "engagement.created", resource_type: "engagement", resource_id: id })
          const rows = yield* sql`SELECT ${enCols} FROM engagements en WHERE en.id = ${id}`.pipe(Effect.flatMap(decodeEngagements))
          const engagement = rows[0]
          if (engagement === undefined) return yield* Effect.die("the new engagement was not found")
          return engagement
        })),
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
      (actor, engagementId, token, at) =>
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
        })),
      Effect.catchTag("SqlError", sqlFailure)
    )
  }
}
