import { layer } from "@effect/vitest"
import { InProcessSignal } from "@forms/domain"
import { portalFixture } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { eventScenarios } from "./events.js"
import { seededPortalPorts } from "../support.js"

// Event delivery on PGlite: one connection, the in-process signal woken after each commit.
layer(seededPortalPorts(EmbeddedPg.layer(), portalFixture, InProcessSignal.layer), {
  timeout: "120 seconds",
  excludeTestServices: true
})("lifecycle events on embedded PostgreSQL (PGlite)", (it) => eventScenarios(it))
