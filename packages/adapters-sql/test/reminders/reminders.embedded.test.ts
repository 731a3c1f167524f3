import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { SqlReminders } from "../../src/reminders/SqlReminders.js"
import { SqlSubmissionRecords } from "../../src/submissionsOut/SqlSubmissionRecords.js"
import { validFixture } from "../fixtures.js"
import { seededPorts } from "../support.js"
import { remindersScenarios } from "./reminders.js"

layer(Layer.mergeAll(SqlReminders.layer, SqlSubmissionRecords.layer).pipe(Layer.provideMerge(seededPorts(EmbeddedPg.layer(), validFixture()))), {
  timeout: "120 seconds",
  excludeTestServices: true
})("shift reminders and promotions on embedded PostgreSQL (PGlite)", (it) => remindersScenarios(it))
