import { inMemorySubmissionsOutPorts } from "./InMemorySubmissionsOutFixture.js"
import { submissionsOutConformance } from "./submissionsOutConformance.js"

submissionsOutConformance("in-memory submissions out ports", inMemorySubmissionsOutPorts)
