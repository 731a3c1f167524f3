/** The `FormSchemas` port on PostgreSQL: one query returns a schema with its event, sections and fields. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type FormSchema, FormSchemas } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { selectFormSchemas, toFormSchemas } from "./FormSchemaRow.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanFindByToken = Effect.withSpan("SqlFormSchemas.findByToken")

// A current token wins over another schema's previous one (IS TRUE: a null public_token must not sort first).
const selectByToken = `${selectFormSchemas("s.public_token = $1 OR s.previous_public_token = $1")}
  ORDER BY (s.public_token = $1) IS TRUE DESC
  LIMIT 1`

export const makeSqlFormSchemas = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const findByToken = (token: string) =>
    sql.unsafe(selectByToken, [token]).pipe(
      Effect.flatMap(toFormSchemas),
      Effect.map((rows): Option.Option<FormSchema> => Option.fromNullishOr(rows[0])),
      Effect.catchTag("SqlError", sqlFailure),
      spanFindByToken
    )

  return FormSchemas.of({ findByToken })
})

export const SqlFormSchemas = {
  layer: Layer.effect(FormSchemas, makeSqlFormSchemas)
} as const
