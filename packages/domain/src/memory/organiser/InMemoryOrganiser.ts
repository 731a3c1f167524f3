/**
 * The organiser ports in memory (OrganiserAccess, OrganiserCatalog, OrganiserArtists) over one state: each write
 * one synchronous step (atomic in one process), with its audit entry.
 */
import { Effect, Layer, Option } from "effect"
import { OrganiserAccess } from "../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../organiser/catalog/OrganiserCatalog.js"
import { OrganiserArtists } from "../../organiser/OrganiserArtists.js"
import { holdersOf, type InMemoryData, InMemoryStore, promoteSlots, waitlistedOf } from "../InMemoryStore.js"
import { inMemoryOrganiserArtists } from "./artists/InMemoryOrganiserArtists.js"
import { inMemoryOrganiserAccess } from "./catalog/InMemoryOrganiserAccess.js"
import { inMemoryOrganiserCatalog, noSlotPlaces, type SlotPlacesAccess } from "./catalog/InMemoryOrganiserCatalog.js"
import { inMemoryOrganiserEngagements } from "./engagements/InMemoryOrganiserEngagements.js"
import { auditTo, idSource, makeOrganiserState, type OrganiserState } from "./OrganiserState.js"

/** Ids unique in this process, whatever the number of states. */
const newId = idSource("8000")

/**
 * The organiser ports over `state`; with `shared` (the data of the `InMemoryStore` the public-form ports use),
 * a slot's holders are the submitted submissions holding a place on it there, and a held slot is IN_USE.
 */
export const makeInMemoryOrganiser = (state: OrganiserState = makeOrganiserState(), shared?: InMemoryData) => {
  const audit = auditTo(state, newId)
  // Without a shared store this state holds no submissions: no slot of it is ever held.
  const places: SlotPlacesAccess = shared === undefined ? noSlotPlaces : {
    holders: (slotId) => holdersOf(shared, slotId),
    waitlisted: (slotId) => waitlistedOf(shared, slotId, Infinity, 0),
    promote: (slot, at) => promoteSlots(shared, [slot], at, newId)
  }
  return {
    access: inMemoryOrganiserAccess(state, newId),
    catalog: inMemoryOrganiserCatalog(state, audit, newId, places),
    artists: OrganiserArtists.of({
      ...inMemoryOrganiserArtists(state, audit, newId),
      ...inMemoryOrganiserEngagements(state, audit, newId)
    })
  }
}

/**
 * The organiser ports over one fresh state per build. When an `InMemoryStore` is in context (built before, e.g.
 * `Layer.provideMerge(InMemory.layer(seed))`), the audit log is the store's and slot places are read there.
 */
const inMemoryOrganiserLayer: Layer.Layer<OrganiserAccess | OrganiserCatalog | OrganiserArtists> = Layer.unwrap(
  Effect.gen(function*() {
    const shared = Option.getOrUndefined(Option.map(yield* Effect.serviceOption(InMemoryStore), (store) => store.data))
    const { access, catalog, artists } = makeInMemoryOrganiser(makeOrganiserState(shared), shared)
    return Layer.mergeAll(
      Layer.succeed(OrganiserAccess, access),
      Layer.succeed(OrganiserCatalog, catalog),
      Layer.succeed(OrganiserArtists, artists)
    )
  })
)

/** The layer of `InMemoryOrganiser`: `InMemoryOrganiser.layer`. */
export const InMemoryOrganiser = { layer: inMemoryOrganiserLayer } as const
