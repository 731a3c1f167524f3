/** The `OrganiserArtists` port on PostgreSQL: master artists scoped by organisation, soft deletes, audit entries. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ArtistNotFound, EngagementNotFound, OrganiserArtists, ReferenceInvalid } from "@forms/domain"
import { advanceDraftKey, ArtistAdvanceType } from "@forms/domain/internal"
import { setPortalToken } from "../../fixture/tokenAdmin.js"
import { sqlFailure } from "../../sql/SqlFailure.js"
import { epochMs } from "../../sql/sqlValues.js"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { toPage } from "../../sql/paging.js"

const ArtistRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  deleted_at: Schema.NullOr(Schema.Number),
  created_at: Schema.Number
})
const DetailRow = Schema.Struct({ ...ArtistRow.fields, profile: Schema.Unknown })
const decodeArtists = decodeRows(ArtistRow)
const decodeDetails = decodeRows(DetailRow)
const SectionRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: Schema.Number,
  status: Schema.Literals(["pending", "submitted"]),
  submitted_at: Schema.NullOr(Schema.Number)
})
const EngagementRow = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  master_artist_id: Schema.String,
  created_at: Schema.Number,
  advance_sections: Schema.Array(SectionRow)
})
const EngagementDetailRow = Schema.Struct({ ...EngagementRow.fields, advance: Schema.Unknown, values: Schema.Unknown })
const decodeEngagements = decodeRows(EngagementRow)
const decodeEngagementDetails = decodeRows(EngagementDetailRow)
const engagementColumns = `en.id, en.event_id, en.master_artist_id, ${epochMs("en.created_at")} AS created_at,
  COALESCE((SELECT json_agg(json_build_object('id', x.id, 'name', x.name, 'position', x.position, 'status', x.status,
      'submitted_at', ${epochMs("x.submitted_at")}) ORDER BY x.position, x.id COLLATE "C")
    FROM advance_sections x WHERE x.engagement_id = en.id), '[]'::json) AS advance_sections`

const columns = `a.id, a.name, ${epochMs("a.deleted_at")} AS deleted_at, ${epochMs("a.created_at")} AS created_at`

/** A profile is a JSON object; anything else stored there shows as `{}`. */
const asObject = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

export const makeSqlOrganiserArtists = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)
  const enCols = sql.literal(engagementColumns)
  return OrganiserArtists.of({
    listArtists: (organisationId, page) => {
      const after = page.after
      const at = after === undefined ? null : new Date(after.created_at)
      return sql`SELECT ${cols} FROM master_artists a WHERE a.organisation_id = ${organisationId}
        AND (${after === undefined} OR a.created_at < ${at}::timestamptz
          OR (a.created_at = ${at}::timestamptz AND a.id COLLATE "C" < ${after?.id ?? null}::text COLLATE "C"))
        ORDER BY a.created_at DESC, a.id COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(
        Effect.flatMap(decodeArtists),
        Effect.map((rows) => toPage(rows, page.limit)),
        Effect.catchTag("SqlError", sqlFailure)
      )
    },
    findArtist: (organisationId, id) =>
      sql`SELECT ${cols}, a.profile FROM master_artists a WHERE a.id = ${id} AND a.organisation_id = ${organisationId}`.pipe(
        Effect.flatMap(decodeDetails),
        Effect.map((rows) => Option.map(Option.fromUndefinedOr(rows[0]), (row) => ({ ...row, profile: asObject(row.profile) }))),
        Effect.catchTag("SqlError", sqlFailure)
      ),
    createArtist: (actor, name, at) =>
      sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql`INSERT INTO master_artists AS a (id, organisation_id, name, created_at)
          VALUES (gen_random_uuid()::text, ${actor.organisation_id}, ${name}, ${new Date(at)}::timestamptz)
          RETURNING ${cols}`.pipe(Effect.flatMap(decodeArtists))
        const artist = rows[0]
        if (artist === undefined) return yield* Effect.die("the insert returned no row")
        yield* appendAudit(sql, actor, at, { action: "artist.created", resource_type: "artist", resource_id: artist.id })
        return artist
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    deleteArtist: (actor, id, at) =>
      sql.withTransaction(Effect.gen(function*() {
        const found = yield* sql`SELECT deleted_at IS NOT NULL AS deleted FROM master_artists
          WHERE id = ${id} AND organisation_id = ${actor.organisation_id} FOR UPDATE`
        if (found.length === 0) return yield* new ArtistNotFound()
        if (found[0]?.["deleted"] === true) return
        yield* sql`UPDATE master_artists SET deleted_at = ${new Date(at)}::timestamptz WHERE id = ${id}`
        yield* appendAudit(sql, actor, at, { action: "artist.deleted", resource_type: "artist", resource_id: id })
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    listEngagements: (organisationId, page) => {
      const after = page.after
      const at = after === undefined ? null : new Date(after.created_at)
      return sql`SELECT ${enCols} FROM engagements en WHERE en.organisation_id = ${organisationId}
        AND (${after === undefined} OR en.created_at < ${at}::timestamptz
          OR (en.created_at = ${at}::timestamptz AND en.id COLLATE "C" < ${after?.id ?? null}::text COLLATE "C"))
        ORDER BY en.created_at DESC, en.id COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(
        Effect.flatMap(decodeEngagements),
        Effect.map((rows) => toPage(rows, page.limit)),
        Effect.catchTag("SqlError", sqlFailure)
      )
    },
    // The event and the artist are locked FOR SHARE: neither can be deleted before this commits.
    createEngagement: (actor, input, at) =>
      sql.withTransaction(Effect.gen(function*() {
        const org = actor.organisation_id
        const event = yield* sql`SELECT 1 FROM events WHERE id = ${input.event_id} AND organisation_id = ${org} FOR SHARE`
        if (event.length === 0) return yield* new ReferenceInvalid({ field: "event_id" })
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
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    // `values`: the advance draft (key `artist_advance:{id}` in the organisation's artist_advance schema).
    findEngagement: (organisationId, id) =>
      sql`SELECT ${enCols}, en.advance,
          COALESCE((SELECT s.values FROM submissions s JOIN form_schemas f ON f.id = s.schema_id
            WHERE f.organisation_id = en.organisation_id AND f.type = ${ArtistAdvanceType}
              AND s.idempotency_key = ${advanceDraftKey(id)} LIMIT 1), '{}'::jsonb) AS values
        FROM engagements en WHERE en.id = ${id} AND en.organisation_id = ${organisationId}`.pipe(
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
    issuePortalToken: (actor, engagementId, token, at) =>
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
      })).pipe(Effect.catchTag("SqlError", sqlFailure))
  })
})

export const SqlOrganiserArtists = { layer: Layer.effect(OrganiserArtists, makeSqlOrganiserArtists) } as const
