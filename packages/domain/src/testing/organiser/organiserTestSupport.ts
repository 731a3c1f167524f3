/** Helpers shared by the organiser conformance checks: fixed times, first pages, fresh actors, failure tags. */
import { Effect, Exit, Option } from "effect"
import { OrganiserAccess } from "../../organiser/catalog/OrganiserAccess.js"
import type { Actor } from "../../shared/Actor.js"
import type { PageRequest } from "../../shared/paging.js"

export const t0 = Date.parse("2027-01-01T00:00:00.000Z")
export const first = <K>(limit = 200): PageRequest<K> => ({ limit, after: undefined })

/** A new organisation with a key: the actor of that key. */
export const newActor = Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const organisation = yield* access.createOrganisation("Org")
  const key = `fok_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}xxxxxxxxxxxx`
  const record = yield* access.createApiKey({ organisation_id: organisation.id, name: "k", key, created_at: t0 })
  const id = Option.getOrThrow(record).id
  return { organisation_id: organisation.id, api_key_id: id } satisfies Actor
})

export const failureTag = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) =>
    Exit.isFailure(exit) ? exit.cause.reasons.map((r) => ("error" in r ? (r.error as { _tag: string })._tag : "defect"))[0] : "success")

