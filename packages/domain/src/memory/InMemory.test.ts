import { InMemory } from "./InMemory.js"
import { portConformance } from "../testing/portConformance.js"

portConformance("in-memory ports", (seed) => InMemory.layer(seed))
