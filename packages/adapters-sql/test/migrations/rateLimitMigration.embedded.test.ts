import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { rateLimitMigrationScenarios } from "./rateLimitMigration.js"

rateLimitMigrationScenarios("migration 0015 on embedded PostgreSQL (PGlite)", EmbeddedPg.layer())
