/** The `OrganiserAccess` port on PostgreSQL: organisations and API keys, keys stored as SHA-256 hashes only. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeyRecord, Organisation, OrganiserAccess } from "@forms/domain"
import { hashPortalToken } from "../../fixture/formRevision.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { sqlFailure } from "../../sql/SqlFailure.js"
import { epochMs } from "../../sql/sqlValues.js"

/** API keys are hashed like portal tokens: lower-case hex SHA-256 of the UTF-8 key. */
export const hashApiKey = hashPortalToken

const decodeKeys = decodeRows(ApiKeyRecord)
const decodeOrganisations = decodeRows(Organisation)

const keyColumns = `id, organisation_id, name, prefix, ${epochMs("created_at")} AS created_at,
  ${epochMs("last_used_at")} AS last_used_at, ${epochMs("revoked_at")} AS revoked_at`

const firstKey = (keys: ReadonlyArray<ApiKeyRecord>) => Option.fromUndefinedOr(keys[0])

export const makeSqlOrganiserAccess = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(keyColumns)

  return OrganiserAccess.of({
    createOrganisation: Effect.fn("SqlOrganiserAccess.createOrganisation")(
      (name) =>
        sql`INSERT INTO organisations (id, name) VALUES (gen_random_uuid()::text, ${name}) RETURNING id, name`.pipe(
          Effect.flatMap(decodeOrganisations),
          Effect.map((rows) => ({ id: rows[0]?.id ?? "", name }))
        ),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findOrganisation: Effect.fn("SqlOrganiserAccess.findOrganisation")(
      (id) => sql`SELECT id, name FROM organisations WHERE id = ${id}`,
      Effect.flatMap(decodeOrganisations),
      Effect.map((rows) => Option.fromUndefinedOr(rows[0])),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    createApiKey: Effect.fn("SqlOrganiserAccess.createApiKey")(
      (input) =>
        sql`INSERT INTO api_keys (organisation_id, name, key_hash, prefix, created_at)
          SELECT id, ${input.name}, ${hashApiKey(input.key)}, ${input.key.slice(0, 8)}, ${new Date(input.created_at)}::timestamptz
          FROM organisations WHERE id = ${input.organisation_id}
          RETURNING ${columns}`,
      Effect.flatMap(decodeKeys),
      Effect.map(firstKey),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findApiKey: Effect.fn("SqlOrganiserAccess.findApiKey")(
      (key) => sql`SELECT ${columns} FROM api_keys WHERE key_hash = ${hashApiKey(key)}`,
      Effect.flatMap(decodeKeys),
      Effect.map(firstKey),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    listApiKeys: Effect.fn("SqlOrganiserAccess.listApiKeys")(
      (organisationId) =>
        sql`SELECT ${columns} FROM api_keys WHERE organisation_id = ${organisationId}
          ORDER BY created_at, id COLLATE "C"`,
      Effect.flatMap(decodeKeys),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    revokeApiKey: Effect.fn("SqlOrganiserAccess.revokeApiKey")(
      (id, at) =>
        sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${new Date(at)}::timestamptz)
          WHERE id = ${id} RETURNING ${columns}`,
      Effect.flatMap(decodeKeys),
      Effect.map(firstKey),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    // The condition keeps concurrent touches from moving the time back; no row is written when already later.
    touchApiKey: Effect.fn("SqlOrganiserAccess.touchApiKey")(
      (id, at) =>
        sql`UPDATE api_keys SET last_used_at = ${new Date(at)}::timestamptz
          WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${new Date(at)}::timestamptz)`,
      Effect.asVoid,
      Effect.catchTag("SqlError", sqlFailure)
    )
  })
})

export const SqlOrganiserAccess = { layer: Layer.effect(OrganiserAccess, makeSqlOrganiserAccess) } as const
