/**
 * The `OrganiserArtists` port on PostgreSQL: master artists scoped by organisation, soft deletes and audit entries
 * here; the port's engagements beside (organiser/engagements/SqlOrganiserEngagements.ts).
 */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type Actor, AdminArtist, ArtistDetail, ArtistNotFound, OrganiserArtists } from "@forms/domain"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { newestFirst, toPage } from "../../sql/paging.js"
import { sqlFailure } from "../../sql/SqlFailure.js"
import { asObject, epochMs } from "../../sql/sqlValues.js"
import { wakeAfterCommit } from "../../events/OutboxRecord.js"
import { makeEngagementMethods } from "../engagements/SqlOrganiserEngagements.js"

/** The artist and its stored `profile` (any JSON: an object is kept, anything else read as `{}`). */
const DetailRow = ArtistDetail.mapFields((fields) => ({ ...fields, profile: Schema.Unknown }))
const decodeArtists = decodeRows(AdminArtist)
const decodeDetails = decodeRows(DetailRow)

/** Over `master_artists a`. */
const columns = `a.id, a.name, ${epochMs("a.deleted_at")} AS deleted_at, ${epochMs("a.created_at")} AS created_at`

export const makeSqlOrganiserArtists = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const wake = yield* wakeAfterCommit
  const cols = sql.literal(columns)
  const audit = (actor: Actor, at: number, action: string, id: string) =>
    appendAudit(sql, actor, at, { action, resource_type: "artist", resource_id: id })

  return OrganiserArtists.of({
    ...makeEngagementMethods(sql, wake),
    listArtists: Effect.fn("SqlOrganiserArtists.listArtists")(
      (organisationId, page) =>
        sql`SELECT ${cols} FROM master_artists a WHERE a.organisation_id = ${organisationId}
          AND ${newestFirst(sql, { created: "a.created_at", id: "a.id" }, page)}`.pipe(
          Effect.flatMap(decodeArtists),
          Effect.map((rows) => toPage(rows, page.limit))
        ),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findArtist: Effect.fn("SqlOrganiserArtists.findArtist")(
      (organisationId, id) =>
        sql`SELECT ${cols}, a.profile FROM master_artists a WHERE a.id = ${id} AND a.organisation_id = ${organisationId}`,
      Effect.flatMap(decodeDetails),
      Effect.map((rows) => Option.map(Option.fromUndefinedOr(rows[0]), (row) => ({ ...row, profile: asObject(row.profile) }))),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    createArtist: Effect.fn("SqlOrganiserArtists.createArtist")(
      (actor, name, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql`INSERT INTO master_artists AS a (id, organisation_id, name, created_at)
            VALUES (gen_random_uuid()::text, ${actor.organisation_id}, ${name}, ${new Date(at)}::timestamptz)
            RETURNING ${cols}`.pipe(Effect.flatMap(decodeArtists))
          const artist = rows[0]
          if (artist === undefined) return yield* Effect.die("the insert returned no row")
          yield* audit(actor, at, "artist.created", artist.id)
          return artist
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    deleteArtist: Effect.fn("SqlOrganiserArtists.deleteArtist")(
      (actor, id, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const found = yield* sql`SELECT deleted_at IS NOT NULL AS deleted FROM master_artists
            WHERE id = ${id} AND organisation_id = ${actor.organisation_id} FOR UPDATE`
          if (found.length === 0) return yield* new ArtistNotFound()
          if (found[0]?.["deleted"] === true) return
          yield* sql`UPDATE master_artists SET deleted_at = ${new Date(at)}::timestamptz WHERE id = ${id}`
          yield* audit(actor, at, "artist.deleted", id)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    )
  })
})

export const SqlOrganiserArtists = { layer: Layer.effect(OrganiserArtists, makeSqlOrganiserArtists) } as const
