/** Identity match (CONTRACT §6): an email (lower-cased) or else a phone's digits finds or creates the contact. */
import { Effect, Option } from "effect"
import { byPositionThenSlug } from "../forms/FormField.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Values } from "../forms/Values.js"
import { makeEnrichmentBatching, makeSchemaLookup } from "./EnrichmentBatching.js"
import { HandlerInputMissing } from "./errors.js"
import { onSubmissionSubmitted } from "./EventHandlers.js"


const stringValue = (values: Values, slug: string): string | null => {
  if (!Object.hasOwn(values, slug)) return null
  const value = values[slug]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null
}

/**
 * The contact key of a submission: the first email field (by position, then slug) holding a value,
 * trimmed and lower-cased; else the digits of the first phone field holding some; else null.
 */
export const identityKey = (schema: FormSchema, values: Values): string | null => {
  const fields = [...schema.fields].sort(byPositionThenSlug)
  for (const field of fields) {
    if (field.type !== "email") continue
    const email = stringValue(values, field.slug)
    if (email !== null) return email.toLowerCase()
  }
  for (const field of fields) {
    if (field.type !== "phone") continue
    const digits = (stringValue(values, field.slug) ?? "").replace(/\D/g, "")
    if (digits !== "") return digits
  }
  return null
}

export const identityMatchName = "identity-match"

/** Links by key in one atomic step that recomputes the contact's tags, so a redelivery changes nothing. */
export const makeIdentityMatch = Effect.gen(function*() {
  const findSchema = yield* makeSchemaLookup
  // Writes of concurrent deliveries go to the port as one batch (EnrichmentBatching.ts).
  const enrichment = yield* makeEnrichmentBatching
  return onSubmissionSubmitted(identityMatchName, (payload) =>
    Effect.gen(function*() {
      const schema = yield* findSchema(payload.schema_id)
      if (Option.isNone(schema)) {
        return yield* new HandlerInputMissing({ message: `schema ${payload.schema_id} not found` })
      }
      const key = identityKey(schema.value, payload.values)
      if (key === null) return
      yield* enrichment.linkContact({
        organisation_id: payload.organisation_id,
        key,
        submission_id: payload.submission_id
      })
    }))
})
