import { Layer } from "effect"
import { InMemorySlotPlaceFixture } from "../../testing/organiser/catalog/SlotPlaceFixture.js"
import { slotPlacesConformance } from "../../testing/organiser/catalog/slotPlacesConformance.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { emptySeed } from "../Seed.js"
import { InMemoryOrganiser } from "./InMemoryOrganiser.js"

// The organiser built over the store the public-form ports use: it sees their places.
slotPlacesConformance(
  "in-memory organiser over the shared store",
  () => Layer.mergeAll(InMemoryOrganiser.layer, InMemorySlotPlaceFixture.layer).pipe(Layer.provideMerge(InMemoryStore.layer(emptySeed)))
)
