import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { uniqueDigestMigrationScenarios } from "./uniqueDigestMigration.js"

uniqueDigestMigrationScenarios("migration 0006 on embedded PostgreSQL (PGlite)", EmbeddedPg.layer())
