/** In-memory FormSchemas, read from the seeded store (a schema changed by `InMemoryStore.updateSchema` is read as changed). */
import { Effect, Layer, Option, Result } from "effect"
import { FormSchemas } from "../../publicForms/FormSchemas.js"
import { InMemoryStore } from "../InMemoryStore.js"

const inMemoryFormSchemasLayer = Layer.effect(
  FormSchemas,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    return FormSchemas.of({
      findByToken: (token) =>
        store.atomically(() => {
          for (const schema of store.data.schemas.values()) {
            if (schema.public_token === token || schema.previous_public_token === token) {
              return Result.succeed(Option.some(schema))
            }
          }
          return Result.succeed(Option.none())
        }),
      findCurrent: (schemaId) => store.atomically(() => Result.succeed(Option.fromUndefinedOr(store.data.schemas.get(schemaId))))
    })
  })
)

/** The layer of `InMemoryFormSchemas`: `InMemoryFormSchemas.layer`. */
export const InMemoryFormSchemas = { layer: inMemoryFormSchemasLayer } as const
