/**
 * The organiser's event writes that lock two events (the event and its new parent) on a real PostgreSQL, many
 * pairs at once: `x → parent y` and `y → parent x` together end with one event moved and the other refused,
 * never a deadlock (40P01, a 500).
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { OrganiserAccess, OrganiserCatalog } from "@forms/domain"
import { Migrations } from "../../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserCatalog } from "../../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../../support.js"

const pairs = 30

/** What a write ended with: its value, its typed failure's tag, or "defect" (a 500). */
const outcome = <A, E extends { readonly _tag: string }>(exit: Exit.Exit<A, E>): string =>
  Exit.isSuccess(exit) ? "moved" : Option.match(Exit.findErrorOption(exit), { onNone: () => "defect", onSome: (e) => e._tag })

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("event locks on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const ports = Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer).pipe(
    Layer.provide(Migrations.layer),
    Layer.provideMerge(isolatedPg(testDatabaseUrl, 2 * pairs))
  )
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })("event locks on PostgreSQL", (it) => {
    it.effect(`${pairs} pairs of events each made the other's child at once: one moves, one is refused, none deadlocks`, () =>
      Effect.gen(function*() {
        const catalog = yield* OrganiserCatalog
        const organisation = yield* (yield* OrganiserAccess).createOrganisation("Locks")
        const actor = { organisation_id: organisation.id, api_key_id: null }
        const create = (name: string) => catalog.createEvent(actor, { name, parent_event_id: null }, Date.now())
        const events = yield* Effect.forEach(Array.from({ length: pairs }), (_, i) =>
          Effect.all([create(`x${i}`), create(`y${i}`)]))
        const moveUnder = (id: string, parent: string) =>
          Effect.exit(catalog.updateEvent(actor, id, { parent_event_id: parent }, Date.now()))

        const results = yield* Effect.forEach(
          events,
          ([x, y]) => Effect.all([moveUnder(x.id, y.id), moveUnder(y.id, x.id)], { concurrency: 2 }),
          { concurrency: "unbounded" }
        )

        const tally = results.map(([a, b]) => [outcome(a), outcome(b)].sort().join(" + "))
        expect(tally).toEqual(Array.from({ length: pairs }, () => "ReferenceInvalid + moved"))
      }))
  })
}
