import { describe, it, layer } from "@effect/vitest"
import { Layer } from "effect"
import { SqlReminders } from "../../src/reminders/SqlReminders.js"
import { SqlSubmissionRecords } from "../../src/submissionsOut/SqlSubmissionRecords.js"
import { validFixture } from "../fixtures.js"
import { isolatedPg, seededPorts, skipReason, testDatabaseUrl } from "../support.js"
import { remindersScenarios } from "./reminders.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("shift reminders on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  layer(Layer.mergeAll(SqlReminders.layer, SqlSubmissionRecords.layer).pipe(
    Layer.provideMerge(seededPorts(isolatedPg(testDatabaseUrl, 10), validFixture()))
  ), {
    timeout: "120 seconds",
    excludeTestServices: true
  })("shift reminders and promotions on PostgreSQL", (it) => remindersScenarios(it))
}
