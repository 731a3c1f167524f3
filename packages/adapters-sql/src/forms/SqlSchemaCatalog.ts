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

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanFindById = Effect.withSpan("SqlSchemaCatalog.findById")

export const makeSqlSchemaCatalog = Effect.gen(function*() {
  const rowCache = Option.getOrUndefined(yield* Effect.serviceOption(FormSchemaCache))
  const read = makeFormSchemaReader(yield* SqlClient.SqlClient, rowCache)(byId)
  const findById = (schemaId: string) => read(schemaId).pipe(Effect.catchTag("SqlError", sqlFailure), spanFindById)
  return SchemaCatalog.of({ findById })
})

export const SqlSchemaCatalog = {
  layer: Layer.effect(SchemaCatalog, makeSqlSchemaCatalog)
} as const
