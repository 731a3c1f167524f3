/** Helpers of the PublicForms use-case tests: a fresh in-memory world at the seed's "now". */
import { Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { emptyValues, type Values } from "../../forms/Values.js"
import type { FormsConfig, FormsConfigShape } from "../../FormsConfig.js"
import { Refused } from "../../limits/Limited.js"
import { clientAt } from "../../limits/LimitPolicy.js"
import { seedNow } from "../../memory/conformanceSeed.js"
import type { Ports } from "../../memory/InMemory.js"
import type { InMemoryStore } from "../../memory/InMemoryStore.js"
import { PublicFormsInMemory } from "../../memory/publicForms/PublicFormsInMemory.js"
import type { PublicForms } from "../../publicForms/PublicForms.js"

export const seedNowMs = Date.parse(seedNow)

type World = PublicForms | Ports | InMemoryStore | FormsConfig

/** Runs `body` against a fresh store, with the TestClock at `seedNow` (unless `at` says otherwise). */
export const inWorld = <A, E>(
  body: Effect.Effect<A, E, World>,
  options: { readonly config?: Partial<FormsConfigShape>; readonly at?: number } = {}
): Effect.Effect<A, E> => {
  const layer: Layer.Layer<World> = PublicFormsInMemory.layer(options.config === undefined ? {} : { config: options.config })
  return Effect.gen(function*() {
    yield* TestClock.setTime(options.at ?? seedNowMs)
    return yield* body
  }).pipe(Effect.provide(layer))
}

/** A null-prototype values map, as the HTTP adapter hands the body's `values` over. */
export const body = (entries: Record<string, unknown> = {}): Values => {
  const out = emptyValues()
  for (const [key, value] of Object.entries(entries)) out[key] = value
  return out
}

/** Idempotency keys of the right shape (16+ printable characters). */
export const keyOf = (n: number): string => `idem-key-${String(n).padStart(8, "0")}`

export const validVolunteer = (email = "ada@example.org"): Record<string, unknown> => ({
  email,
  name: "Ada",
  shirt: "M"
})

type Unwrapped<E> = E extends Refused<infer Reason> ? Reason : E

/** The failure, a `Refused` unwrapped to its reason, for assertions on what was answered. */
export const reasonOf = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Unwrapped<E>, A, R> =>
  Effect.flip(effect).pipe(Effect.map((error) => (error instanceof Refused ? error.reason : error) as Unwrapped<E>))

/** A client of no exempt network. */
export const ip = clientAt("10.0.0.1")
