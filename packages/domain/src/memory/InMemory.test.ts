import { portConformance } from "../testing/portConformance.js"
import { InMemory } from "./InMemory.js"

portConformance("in-memory ports", (seed) => InMemory.layer(seed))
