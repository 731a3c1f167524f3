/** Tag sync (CONTRACT §6): the schema's tags plus the tags of every chosen option become the submission's tags. */
import { Effect, Option } from "effect"
import type { FormField } from "../forms/FormField.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Values } from "../forms/Values.js"
import { compareStrings } from "../shared/compareStrings.js"
import { makeEnrichmentBatching, makeSchemaLookup } from "./EnrichmentBatching.js"
import { HandlerInputMissing } from "./errors.js"
import { onSubmissionSubmitted } from "./EventHandlers.js"

/** A chosen value as the `in` rule compares it: a trimmed string, or a number as `String(n)` writes it. */
const asOptionValue = (value: unknown): string | null =>
  typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : null

const chosenValues = (value: unknown): ReadonlyArray<string> => {
  const items = Array.isArray(value) ? value : [value]
  return items.map(asOptionValue).filter((item): item is string => item !== null && item !== "")
}

const chosenOptionTags = (field: FormField, values: Values): ReadonlyArray<string> => {
  if (field.options === null || !Object.hasOwn(values, field.slug)) return []
  const chosen = new Set(chosenValues(values[field.slug]))
  return field.options.filter((option) => chosen.has(option.value)).flatMap((option) => option.tags)
}

/** The submission's tags: a set, sorted by code unit so that the same input always gives the same list. */
export const submissionTags = (schema: FormSchema, values: Values): ReadonlyArray<string> => {
  const tags = new Set<string>(schema.tags)
  for (const field of schema.fields) for (const tag of chosenOptionTags(field, values)) tags.add(tag)
  return [...tags].sort(compareStrings)
}

export const tagSyncName = "tag-sync"

/** Sets (never appends) the tags, so a redelivery writes the same set again. */
export const makeTagSync = Effect.gen(function*() {
  const findSchema = yield* makeSchemaLookup
  // Writes of concurrent deliveries go to the port as one batch (EnrichmentBatching.ts).
  const enrichment = yield* makeEnrichmentBatching
  return onSubmissionSubmitted(tagSyncName, (payload) =>
    Effect.gen(function*() {
      const schema = yield* findSchema(payload.schema_id)
      if (Option.isNone(schema)) {
        return yield* new HandlerInputMissing({ message: `schema ${payload.schema_id} not found` })
      }
      yield* enrichment.setSubmissionTags({ submission_id: payload.submission_id, tags: submissionTags(schema.value, payload.values) })
    }))
})
