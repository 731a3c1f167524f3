/**
 * The `FormSchemas` port on PostgreSQL: a thin row per request, the sections and fields cached per
 * (schema id, revision) in the process (`FormSchemaReader.ts`).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { FormSchemas } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { byToken, makeFormSchemaReader } from "./FormSchemaReader.js"

const spanFindByToken = Effect.withSpan("SqlFormSchemas.findByToken")

export const makeSqlFormSchemas = Effect.gen(function*() {
  const read = makeFormSchemaReader(yield* SqlClient.SqlClient)(byToken)
  const findByToken = (token: string) => read(token).pipe(Effect.catchTag("SqlError", sqlFailure), spanFindByToken)
  return FormSchemas.of({ findByToken })
})

export const SqlFormSchemas = {
  layer: Layer.effect(FormSchemas, makeSqlFormSchemas)
} as const
