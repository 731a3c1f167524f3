/** The `OrganiserAccess` port on PostgreSQL: organisations and API keys, keys stored as SHA-256 hashes only. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type ApiKeyRecord, OrganiserAccess } from "@forms/domain"
import { hashPortalToken } from "../../fixture/formRevision.js"
import { sqlFailure } from "../../sql/SqlFailure.js"
import { epochMs } from "../../sql/sqlValues.js"

/** API keys are hashed like portal tokens: lower-case hex SHA-256 of the UTF-8 key. */
export const hashApiKey = hashPortalToken


const KeyRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  name: Schema.NullOr(Schema.String),
  prefix: Schema.String,
  created_at: Schema.Number,
  last_used_at: Schema.NullOr(Schema.Number),
  revoked_at: Schema.NullOr(Schema.Number)
})
const decodeKeys = Schema.decodeUnknownEffect(Schema.Array(KeyRow))
const OrganisationRow = Schema.Struct({ id: Schema.String, name: Schema.String })
const decodeOrganisations = Schema.decodeUnknownEffect(Schema.Array(OrganisationRow))

const keyColumns = `id, organisation_id, name, prefix, ${epochMs("created_at")} AS created_at,
  ${epochMs("last_used_at")} AS last_used_at, ${epochMs("revoked_at")} AS revoked_at`

export const makeSqlOrganiserAccess = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(keyColumns)
  const keys = <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    rows.pipe(Effect.flatMap((found) => Effect.orDie(decodeKeys(found)))) as Effect.Effect<ReadonlyArray<ApiKeyRecord>, E, R>
  const one = <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    Effect.map(keys(rows), (found) => Option.fromUndefinedOr(found[0]))

  return OrganiserAccess.of({
    createOrganisation: (name) =>
      sql`INSERT INTO organisations (id, name) VALUES (gen_random_uuid()::text, ${name}) RETURNING id, name`.pipe(
        Effect.flatMap((rows) => Effect.orDie(decodeOrganisations(rows))),
        Effect.map((rows) => ({ id: rows[0]?.id ?? "", name })),
        Effect.catchTag("SqlError", sqlFailure)
      ),
    findOrganisation: (id) =>
      sql`SELECT id, name FROM organisations WHERE id = ${id}`.pipe(
        Effect.flatMap((rows) => Effect.orDie(decodeOrganisations(rows))),
        Effect.map((rows) => Option.fromUndefinedOr(rows[0])),
        Effect.catchTag("SqlError", sqlFailure)
      ),
    createApiKey: (input) =>
      one(sql`INSERT INTO api_keys (organisation_id, name, key_hash, prefix, created_at)
        SELECT id, ${input.name}, ${hashApiKey(input.key)}, ${input.key.slice(0, 8)}, ${new Date(input.created_at)}::timestamptz
        FROM organisations WHERE id = ${input.organisation_id}
        RETURNING ${columns}`).pipe(Effect.catchTag("SqlError", sqlFailure)),
    findApiKey: (key) =>
      one(sql`SELECT ${columns} FROM api_keys WHERE key_hash = ${hashApiKey(key)}`).pipe(
        Effect.catchTag("SqlError", sqlFailure)
      ),
    listApiKeys: (organisationId) =>
      keys(sql`SELECT ${columns} FROM api_keys WHERE organisation_id = ${organisationId}
        ORDER BY created_at, id COLLATE "C"`).pipe(Effect.catchTag("SqlError", sqlFailure)),
    revokeApiKey: (id, at) =>
      one(sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${new Date(at)}::timestamptz)
        WHERE id = ${id} RETURNING ${columns}`).pipe(Effect.catchTag("SqlError", sqlFailure)),
    // The condition keeps concurrent touches from moving the time back; no row is written when already later.
    touchApiKey: (id, at) =>
      sql`UPDATE api_keys SET last_used_at = ${new Date(at)}::timestamptz
        WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${new Date(at)}::timestamptz)`.pipe(
        Effect.asVoid,
        Effect.catchTag("SqlError", sqlFailure)
      )
  })
})

export const SqlOrganiserAccess = { layer: Layer.effect(OrganiserAccess, makeSqlOrganiserAccess) } as const
