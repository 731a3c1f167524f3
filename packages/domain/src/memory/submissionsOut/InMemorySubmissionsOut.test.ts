import { inMemorySubmissionsOutPorts } from "../../testing/submissionsOut/InMemorySubmissionsOutFixture.js"
import { submissionsOutConformance } from "../../testing/submissionsOut/submissionsOutConformance.js"

submissionsOutConformance("in-memory submissions out ports", inMemorySubmissionsOutPorts)
