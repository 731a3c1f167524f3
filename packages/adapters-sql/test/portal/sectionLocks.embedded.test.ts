import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { InProcessSignal } from "@forms/domain"
import { portalFixture } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { SqlOrganiserArtists } from "../../src/organiser/artists/SqlOrganiserArtists.js"
import { seededPortalPorts } from "../support.js"
import { sectionLockTests } from "./sectionLocks.js"

layer(
  SqlOrganiserArtists.layer.pipe(Layer.provideMerge(seededPortalPorts(EmbeddedPg.layer(), portalFixture, InProcessSignal.layer))),
  { timeout: 120_000, excludeTestServices: true }
)("section locks on embedded PostgreSQL (PGlite)", sectionLockTests)
