/**
 * Value applying under redelivery and racing dispatchers (CONTRACT §6: a redelivered event changes nothing the
 * second time; §8: on every process): the advance ends with what the latest submits hold.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { FormsConfig } from "../FormsConfig.js"
import { clientAt } from "../limits/LimitPolicy.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { InMemoryPortal } from "../memory/portal/InMemoryPortal.js"
import {
  type PortalFixture,
  portalFixture,
  portalIds,
  portalNow,
  portalTokens
} from "../memory/portal/portalFixture.js"
import { ArtistPortal } from "../portal/ArtistPortal.js"
import type { Engagements } from "../portal/Engagements.js"
import { ArtistPortalLive } from "../portal/makeArtistPortal.js"
import { ValueTargets } from "../portal/ValueTargets.js"
import { plain, values } from "../testing/support.js"
import type { OutboxEvent } from "./Outbox.js"
import { makeValueApplying } from "./ValueApplying.js"

const ip = clientAt("192.0.2.1")

const run = <A, E>(effect: Effect.Effect<A, E, ArtistPortal | Engagements | ValueTargets | InMemoryStore>, fixture: PortalFixture = portalFixture) =>
  TestClock.setTime(Date.parse(portalNow)).pipe(
    Effect.andThen(effect),
    Effect.provide(ArtistPortalLive.layer.pipe(Layer.provideMerge(Layer.mergeAll(InMemoryPortal.layer(fixture), FormsConfig.layer()))))
  )

const outbox = Effect.flatMap(InMemoryStore, (store) => store.outbox)
const advance = Effect.map(Effect.flatMap(ValueTargets, (targets) => targets.read(portalIds.engagement)), Option.map((o) => plain(o.advance)))
const eventAt = (events: ReadonlyArray<OutboxEvent>, index: number): OutboxEvent => {
  const event = events[index]
  if (event === undefined) throw new Error(`event ${index} expected`)
  return event
}

describe("value applying, redelivered and raced", () => {
  it.effect("an older event's apply landing after a newer one's (two dispatchers) leaves the newer values", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const targets = yield* ValueTargets
      const entered = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      // Dispatcher 1's handler reads the draft, then waits at its apply.
      const held = ValueTargets.of({
        read: targets.read,
        apply: (command) => Deferred.succeed(entered, undefined).pipe(Effect.andThen(Deferred.await(release)), Effect.andThen(targets.apply(command)))
      })
      const slow = yield* makeValueApplying.pipe(Effect.provideService(ValueTargets, held))
      const handler = yield* makeValueApplying
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: "2027-08-19", flight_number: "OLD1" }), ip)
      const first = yield* Effect.forkChild(slow.handle(eventAt(yield* outbox, 0)))
      yield* Deferred.await(entered)
      // The artist submits again; dispatcher 2 handles the newer event before dispatcher 1 goes on.
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ flight_number: "NEW2" }), ip)
      yield* handler.handle(eventAt(yield* outbox, 1))
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(first)
      expect(yield* advance).toEqual(Option.some({ arrival_date: "2027-08-19", flight: "NEW2" }))
    })))

  it.effect("two sections mapping one key: the later submitted wins, and a redelivery changes nothing", () => {
    const fixture: PortalFixture = {
      ...portalFixture,
      form_schemas: portalFixture.form_schemas.map((schema) => schema.id !== portalIds.advance ? schema : {
        ...schema,
        fields: schema.fields.map((field) => field.slug === "hotel" ? { ...field, maps_to: "engagement.flight" } : field)
      })
    }
    return run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const handler = yield* makeValueApplying
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: "2027-08-19", flight_number: "T1" }), ip)
      yield* TestClock.adjust(1_000)
      yield* portal.submitSection(portalTokens.engagement, portalIds.hospitality, values({ dietary: "vegan", hotel: "H1" }), ip)
      const events = yield* outbox
      yield* handler.handle(eventAt(events, 0))
      yield* handler.handle(eventAt(events, 1))
      expect(yield* advance).toEqual(Option.some({ arrival_date: "2027-08-19", flight: "H1" }))
      // A crash before the first was marked delivered: it comes again.
      yield* handler.handle(eventAt(events, 0))
      expect(yield* advance).toEqual(Option.some({ arrival_date: "2027-08-19", flight: "H1" }))
      // Travel submitted again, later: its value wins now.
      yield* TestClock.adjust(1_000)
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ flight_number: "T2" }), ip)
      yield* handler.handle(eventAt(yield* outbox, 2))
      yield* handler.handle(eventAt(events, 1))
      expect(yield* advance).toEqual(Option.some({ arrival_date: "2027-08-19", flight: "T2" }))
    }), fixture)
  })
})
