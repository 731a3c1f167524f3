/**
 * The `FormSchemas` port on PostgreSQL: a thin row per request (none while a `FormSchemaCache` in the
 * context holds it), the sections and fields cached per (schema id, revision) in the process
 * (`FormSchemaReader.ts`).
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { FormSchemas } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { FormSchemaCache } from "../cache/FormSchemaCache.js"
import { byToken, makeFormSchemaReader } from "../rows/FormSchemaReader.js"

const spanFindByToken = Effect.withSpan("SqlFormSchemas.findByToken")

export const makeSqlFormSchemas = Effect.gen(function*() {
  const rowCache = Option.getOrUndefined(yield* Effect.serviceOption(FormSchemaCache))
  const read = makeFormSchemaReader(yield* SqlClient.SqlClient, rowCache)(byToken)
  const findByToken = (token: string) => read(token).pipe(Effect.catchTag("SqlError", sqlFailure), spanFindByToken)
  return FormSchemas.of({ findByToken })
})

export const SqlFormSchemas = {
  layer: Layer.effect(FormSchemas, makeSqlFormSchemas)
} as const
