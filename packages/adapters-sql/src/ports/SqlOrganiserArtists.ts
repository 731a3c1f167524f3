/** The `OrganiserArtists` port on PostgreSQL: master artists scoped by organisation, soft deletes, audit entries. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ArtistNotFound, OrganiserArtists } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { appendAudit, decodeRows, toPage } from "./organiserRows.js"
import { epochMs } from "./SubmissionRow.js"

const ArtistRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  deleted_at: Schema.NullOr(Schema.Number),
  created_at: Schema.Number
})
const DetailRow = Schema.Struct({ ...ArtistRow.fields, profile: Schema.Unknown })
const decodeArtists = decodeRows(ArtistRow)
const decodeDetails = decodeRows(DetailRow)
const columns = `a.id, a.name, ${epochMs("a.deleted_at")} AS deleted_at, ${epochMs("a.created_at")} AS created_at`

/** A profile is a JSON object; anything else stored there shows as `{}`. */
const asObject = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

export const makeSqlOrganiserArtists = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)
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
      })).pipe(Effect.catchTag("SqlError", sqlFailure))
  })
})

export const SqlOrganiserArtists = { layer: Layer.effect(OrganiserArtists, makeSqlOrganiserArtists) } as const
