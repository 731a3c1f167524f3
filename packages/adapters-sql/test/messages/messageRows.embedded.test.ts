import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { MessageRows } from "@forms/domain"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { SqlMessageRows } from "../../src/messages/SqlMessageRows.js"
import { validFixture } from "../fixtures.js"
import { seededPorts } from "../support.js"
import { messageRowsScenarios } from "./messageRows.js"

layer(SqlMessageRows.layer.pipe(Layer.provideMerge(seededPorts(EmbeddedPg.layer(), validFixture()))), {
  timeout: "120 seconds",
  excludeTestServices: true
})("messages on embedded PostgreSQL (PGlite)", (it) => messageRowsScenarios(it, MessageRows))
