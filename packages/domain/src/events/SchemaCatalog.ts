/** Port: form schemas by id, whatever their status, type or token (for the event handlers). */
import { Context, type Effect, type Option } from "effect"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Unavailable } from "../shared/errors.js"

export class SchemaCatalog extends Context.Service<SchemaCatalog, {
  readonly findById: (schemaId: string) => Effect.Effect<Option.Option<FormSchema>, Unavailable>
}>()("@forms/domain/SchemaCatalog") {}
