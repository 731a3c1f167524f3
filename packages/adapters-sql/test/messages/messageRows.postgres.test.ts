import { describe, it, layer } from "@effect/vitest"
import { Layer } from "effect"
import { MessageRows } from "@forms/domain"
import { SqlMessageRows } from "../../src/messages/SqlMessageRows.js"
import { validFixture } from "../fixtures.js"
import { isolatedPg, seededPorts, skipReason, testDatabaseUrl } from "../support.js"
import { messageRowsScenarios } from "./messageRows.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("messages on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  layer(SqlMessageRows.layer.pipe(Layer.provideMerge(seededPorts(isolatedPg(testDatabaseUrl, 10), validFixture()))), {
    timeout: "120 seconds",
    excludeTestServices: true
  })("messages on PostgreSQL", (it) => messageRowsScenarios(it, MessageRows))
}
