/** Shared helpers of the port conformance suite: the `it` of a layer block, fresh names, commands. */
import type { Vitest } from "@effect/vitest"
import type { NewOutboxEvent } from "../events/Outbox.js"
import { emptyValues, type Values } from "../forms/Values.js"
import type { Ports } from "../memory/InMemory.js"
import type { Submission } from "../publicForms/Submission.js"
import type { NewDraft, SubmitCommand, UniqueClaim } from "../publicForms/Submissions.js"

export type ConformanceIt = Vitest.MethodsNonLive<Ports>

/**
 * Names unique to one run of the suite (idempotency keys, limiter keys, unique values), so that tests
 * sharing one store never see each other's rows, even on a store that outlives the run.
 */
export const makeFresh = (): ((prefix: string) => string) => {
  const run = Math.random().toString(36).slice(2, 10).padEnd(8, "0")
  let counter = 0
  return (prefix) => {
    counter += 1
    return `${prefix}-${run}-${String(counter).padStart(5, "0")}`
  }
}

/** A null-prototype values map from plain entries. */
export const values = (entries: Record<string, unknown>): Values => {
  const out = emptyValues()
  for (const [key, value] of Object.entries(entries)) out[key] = value
  return out
}

export const draftOf = (schemaId: string, key: string, initial: Values = values({}), eventId: string | null = null): NewDraft => ({
  schema_id: schemaId,
  idempotency_key: key,
  event_id: eventId,
  subject_id: null,
  language: "en",
  values: initial
})

export const submitOf = (
  submission: Submission,
  submitted: Values,
  options: {
    readonly claims?: ReadonlyArray<UniqueClaim>
    readonly events?: ReadonlyArray<NewOutboxEvent>
    readonly submittedAt?: number
    readonly version?: number
  } = {}
): SubmitCommand => ({
  schema_id: submission.schema_id,
  id: submission.id,
  expected_version: options.version ?? submission.version,
  values: submitted,
  claims: options.claims ?? [],
  submitted_at: options.submittedAt ?? Date.parse("2027-07-01T10:00:00.000Z"),
  events: options.events ?? []
})

/** Plain own entries, for comparisons that must not depend on a map's prototype. */
export const plain = (map: Values): Record<string, unknown> => Object.fromEntries(Object.entries(map))

export const byId = <A extends { readonly id: string }>(items: ReadonlyArray<A>): ReadonlyArray<A> =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
