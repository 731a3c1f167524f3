import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { genericPlanScenarios } from "./genericPlans.js"

genericPlanScenarios("generic plans on embedded PostgreSQL (PGlite)", EmbeddedPg.layer())
