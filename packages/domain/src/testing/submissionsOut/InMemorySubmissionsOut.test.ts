import { InMemorySubmissionsOut } from "./InMemorySubmissionsOut.js"
import { submissionsOutConformance } from "./submissionsOutConformance.js"

submissionsOutConformance("in-memory submissions out ports", () => InMemorySubmissionsOut.layer)
