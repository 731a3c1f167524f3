import { Layer } from "effect"
import { organiserConformance } from "../../testing/organiser/organiserConformance.js"
import { InMemory } from "../InMemory.js"
import { InMemoryOrganiser } from "./InMemoryOrganiser.js"

organiserConformance("in-memory organiser ports", () => InMemoryOrganiser.layer)
// Built over the public-form ports' store: the audit log is the store's, slot places are read there.
organiserConformance("in-memory organiser ports over a shared store", () => InMemoryOrganiser.layer.pipe(Layer.provideMerge(InMemory.layer())))
