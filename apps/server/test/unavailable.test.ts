import { assert, layer } from "@effect/vitest"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AdminConfig, HttpApp, HttpConfig } from "@forms/adapters-http"
import {
  FolderFileStorage,
  PgLive,
  SqlOrganiserAccess,
  SqlOrganiserArtists,
  SqlOrganiserCatalog,
  SqlOrganiserForms,
  SqlOutboxAdmin,
  SqlPortalPorts,
  SqlPorts,
  SqlSubmissionRecords,
  SqlMessageLog,
  SqlWebhookStore
} from "@forms/adapters-sql"
import { ArtistPortalLive, FilesLive, FormAuthoringLive, FormsConfig, OrganiserLive, OrganiserMessagesLive, PublicFormsLive, SubmissionsOutLive, VolunteerShiftsLive, WebhookSettings, WebhooksLive } from "@forms/domain"
import { ServerReadiness } from "../src/index.js"
import { call, envelope } from "./harness.js"

// Nothing listens on port 1: every query fails to connect.
const DeadDatabase = PgLive.layer({ url: "postgres://postgres@127.0.0.1:1/none", connectTimeout: "1 second" })

const server = HttpApp.server.pipe(
  Layer.provide([
    Layer.mergeAll(PublicFormsLive.layer, ArtistPortalLive.layer, OrganiserLive.layer, FormAuthoringLive.layer, SubmissionsOutLive.layer, FilesLive.layer, VolunteerShiftsLive.layer).pipe(
      Layer.provide([
        SqlPorts.layer,
        SqlPortalPorts.layer,
        SqlOrganiserAccess.layer,
        SqlOrganiserCatalog.layer,
        SqlOrganiserArtists.layer,
        SqlSubmissionRecords.layer,
        SqlOutboxAdmin.layer,
        SqlOrganiserForms.layer,
        FolderFileStorage.layer(join(mkdtempSync(join(tmpdir(), "forms-unavailable-")), "files"))
      ]),
      Layer.provide(FormsConfig.layer())
    ),
    WebhooksLive.layer.pipe(Layer.provide([SqlWebhookStore.layer, WebhookSettings.layer()])),
    OrganiserMessagesLive.layer.pipe(Layer.provide(SqlMessageLog.layer)),
    SqlPorts.layer,
    AdminConfig.layer(),
    ServerReadiness.layer,
    HttpConfig.layer()
  ]),
  Layer.provide(DeadDatabase),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)

const unavailable = envelope("UNAVAILABLE", "The service is temporarily unavailable. Nothing was written.")

layer(server, { timeout: 60_000, excludeTestServices: true })("database down", (it) => {
  it.effect("use cases answer 503 UNAVAILABLE, /health/ready too, /health/live stays 200", () =>
    Effect.gen(function*() {
      const form = yield* call("/public/forms/some-token-0123456789")
      assert.strictEqual(form.status, 503)
      assert.strictEqual(form.text, unavailable)
      const create = yield* call("/public/forms/some-token-0123456789/submissions", {
        method: "POST",
        body: { idempotency_key: "0192f1c4-aaaa-bbbb-cccc-000000000001" }
      })
      assert.strictEqual(create.text, unavailable)
      const portal = yield* call("/p/artist/some-token-0123456789")
      assert.strictEqual(portal.status, 503)
      assert.strictEqual(portal.text, unavailable)
      const ready = yield* call("/health/ready")
      assert.strictEqual(ready.status, 503)
      assert.strictEqual(ready.text, unavailable)
      assert.strictEqual((yield* call("/health/live")).status, 200)
      const admin = yield* call("/admin/events", { headers: { authorization: `Bearer fok_${"k".repeat(43)}` } })
      assert.strictEqual(admin.status, 503)
      assert.strictEqual(admin.text, unavailable)
    }))
})
