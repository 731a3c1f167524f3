/**
 * The `FormSchemas` port on PostgreSQL: a thin row per request (none while a `FormSchemaCache` in the
 * context holds it), the sections and fields cached per (schema id, revision) in the process
 * (`FormSchemaReader.ts`).
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { FormSchemas } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { FormSchemaCache } from "../forms/FormSchemaCache.js"
import { byId, byToken, makeFormSchemaReader } from "../forms/FormSchemaReader.js"

export const makeSqlFormSchemas = Effect.gen(function*() {
  const rowCache = Option.getOrUndefined(yield* Effect.serviceOption(FormSchemaCache))
  const read = makeFormSchemaReader(yield* SqlClient.SqlClient, rowCache)(byToken)
  const findByToken = Effect.fn("SqlFormSchemas.findByToken")(
    (token: string) => read(token),
    Effect.catchTag("SqlError", sqlFailure)
  )
  // Past the row cache: a write that found the revision moved must see the change, not a notification's lag.
  const readCurrent = makeFormSchemaReader(yield* SqlClient.SqlClient)(byId)
  const findCurrent = Effect.fn("SqlFormSchemas.findCurrent")(
    (schemaId: string) => readCurrent(schemaId),
    Effect.catchTag("SqlError", sqlFailure)
  )
  return FormSchemas.of({ findByToken, findCurrent })
})

export const SqlFormSchemas = {
  layer: Layer.effect(FormSchemas, makeSqlFormSchemas)
} as const
