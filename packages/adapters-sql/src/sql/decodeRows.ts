/** Rows decoded with a Schema; the one way every adapter turns the driver's rows into typed ones. */
import { Effect, Schema } from "effect"

/** Decodes rows; a row of another shape is a defect (the schema and this code disagree), never the caller's failure. */
export const decodeRows = <S extends Schema.Top>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>) =>
    Effect.orDie(decode(rows)) as Effect.Effect<ReadonlyArray<S["Type"]>>
}
