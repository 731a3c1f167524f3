/** The `SchemaCatalog` port on PostgreSQL: a form schema by id, whatever its status, type or token. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type FormSchema, SchemaCatalog } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { selectFormSchemas, toFormSchemas } from "./FormSchemaRow.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanFindById = Effect.withSpan("SqlSchemaCatalog.findById")

const selectById = selectFormSchemas("s.id = $1")

export const makeSqlSchemaCatalog = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const findById = (schemaId: string) =>
    sql.unsafe(selectById, [schemaId]).pipe(
      Effect.flatMap(toFormSchemas),
      Effect.map((rows): Option.Option<FormSchema> => Option.fromNullishOr(rows[0])),
      Effect.catchTag("SqlError", sqlFailure),
      spanFindById
    )

  return SchemaCatalog.of({ findById })
})

export const SqlSchemaCatalog = {
  layer: Layer.effect(SchemaCatalog, makeSqlSchemaCatalog)
} as const
