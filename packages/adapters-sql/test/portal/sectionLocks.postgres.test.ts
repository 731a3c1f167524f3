import { describe, it, layer } from "@effect/vitest"
import { Layer } from "effect"
import { portalFixture } from "@forms/domain/testing"
import { SqlOutboxSignal } from "../../src/events/SqlOutboxSignal.js"
import { SqlOrganiserArtists } from "../../src/organiser/artists/SqlOrganiserArtists.js"
import { isolatedPg, seededPortalPorts, skipReason, testDatabaseUrl, testSchemaName } from "../support.js"
import { sectionLockTests } from "./sectionLocks.js"

if (testDatabaseUrl === undefined) {
  describe("section locks on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  const schema = testSchemaName()
  layer(
    SqlOrganiserArtists.layer.pipe(
      Layer.provideMerge(seededPortalPorts(isolatedPg(url, 10, schema), portalFixture, SqlOutboxSignal.layer({ url, schema })))
    ),
    { timeout: 120_000, excludeTestServices: true }
  )("section locks on PostgreSQL", sectionLockTests)
}
