/**
 * The `SchemaCatalog` port on PostgreSQL: a form schema by id, whatever its status, type or token. Like
 * `FormSchemas`, a thin row per call (none while a `FormSchemaCache` in the context holds it) and the
 * sections and fields cached per revision (`FormSchemaReader.ts`).
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { SchemaCatalog } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { FormSchemaCache } from "./FormSchemaCache.js"
import { byId, makeFormSchemaReader } from "./FormSchemaReader.js"

export const makeSqlSchemaCatalog = Effect.gen(function*() {
  const rowCache = Option.getOrUndefined(yield* Effect.serviceOption(FormSchemaCache))
  const read = makeFormSchemaReader(yield* SqlClient.SqlClient, rowCache)(byId)
  const findById = Effect.fn("SqlSchemaCatalog.findById")(
    (schemaId: string) => read(schemaId),
    Effect.catchTag("SqlError", sqlFailure)
  )
  return SchemaCatalog.of({ findById })
})

export const SqlSchemaCatalog = {
  layer: Layer.effect(SchemaCatalog, makeSqlSchemaCatalog)
} as const
