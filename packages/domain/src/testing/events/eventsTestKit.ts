/** Shared set-up of the dispatcher tests: the in-memory ports, a registry, a flaky handler, a section submit. */
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { defaultBackoff } from "../../events/Backoff.js"
import { BuiltinHandlers } from "../../events/BuiltinHandlers.js"
import { type EventHandler, EventHandlers } from "../../events/EventHandlers.js"
import type { OutboxEvent } from "../../events/Outbox.js"
import { emptyValues, type Values } from "../../forms/Values.js"
import { FormsConfig } from "../../FormsConfig.js"
import { clientAt } from "../../limits/LimitPolicy.js"
import { InMemoryStore } from "../../memory/InMemoryStore.js"
import { InMemoryPortal } from "../../memory/portal/InMemoryPortal.js"
import { portalIds, portalNow, portalTokens } from "../../memory/portal/portalFixture.js"
import { ArtistPortal } from "../../portal/ArtistPortal.js"
import { ArtistPortalLive } from "../../portal/makeArtistPortal.js"

export const now = Date.parse(portalNow)
const ip = clientAt("192.0.2.9")
export const noJitter = { backoff: { ...defaultBackoff, jitter: 0 } }

export const values = (entries: Record<string, unknown>): Values => {
  const out = emptyValues()
  for (const [key, value] of Object.entries(entries)) out[key] = value
  return out
}

/** Whether the registry holds the built-in handlers too (after `handlers`). */
export interface EventsOptions {
  readonly builtin?: boolean
}

/** Every port in memory, ArtistPortal, and a registry holding `handlers` (plus the built-in ones when asked). */
export const eventsLayer = (handlers: ReadonlyArray<EventHandler>, options: EventsOptions = {}) => {
  const registry = options.builtin === true
    ? BuiltinHandlers.layer.pipe(Layer.provideMerge(EventHandlers.layer(handlers)))
    : EventHandlers.layer(handlers)
  return Layer.mergeAll(ArtistPortalLive.layer, registry).pipe(
    Layer.provideMerge(Layer.mergeAll(InMemoryPortal.layer(), FormsConfig.layer()))
  )
}

/** Runs `effect` on a fresh store at the fixture's instant. */
export const runEvents = <A, E>(
  handlers: ReadonlyArray<EventHandler>,
  effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof eventsLayer>>>,
  options: EventsOptions = {}
) => TestClock.setTime(now).pipe(Effect.andThen(effect), Effect.provide(eventsLayer(handlers, options)))

/** Lets forked fibers run until they block again. */
export const settle = Effect.forEach(Array.from({ length: 25 }), () => Effect.yieldNow, { discard: true })

/** Submits the main engagement's Travel section: records one `section.submitted`. */
export const submitTravel = (flight: string) =>
  ArtistPortal.use((portal) =>
    portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: "2027-08-19", flight_number: flight }), ip))

export const outboxRows = InMemoryStore.use((store) => store.outbox)

/** A raw outbox row, due now, for payloads no writer would record. */
export const outboxRow = (id: string) => ({
  id,
  type: "submission.submitted" as const,
  payload: {},
  attempts: 0,
  last_error: null,
  available_at: now,
  claimed_until: null,
  delivered_at: null,
  dead_at: null,
  created_at: now
})

/** A `section.submitted` handler that fails its first `failures` calls and records the events it applied. */
export const flaky = (failures: number) => {
  const state = { calls: 0, applied: new Set<string>() }
  const handler: EventHandler = {
    name: "flaky",
    type: "section.submitted",
    handle: (event: OutboxEvent) =>
      Effect.suspend(() => {
        state.calls += 1
        if (state.calls <= failures) return Effect.fail(new Error(`boom ${state.calls}`))
        state.applied.add(event.id)
        return Effect.void
      })
  }
  return { state, handler }
}
