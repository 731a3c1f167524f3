import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { ApiGone, ApiNotFound, ApiValidationFailed, DraftCreated, DraftExisting, makeApiClient } from "../src/index.js"
import { baseUrl, serverLayer } from "./harness.js"
import { goneToken, portalToken } from "./FakeArtistPortal.js"
import { FakePublicForms, openToken } from "./FakePublicForms.js"

const client = Effect.flatMap(baseUrl, (url) => makeApiClient(url))

layer(Layer.merge(serverLayer(FakePublicForms), FetchHttpClient.layer))("typed client", (it) => {
  it.effect("decodes successes by status and errors into the envelope classes", () =>
    Effect.gen(function*() {
      const api = yield* client
      const created = yield* api.publicForms.createDraft({
        params: { token: openToken },
        payload: { idempotency_key: "0192f1c4-aaaa-bbbb-cccc-000000000001" }
      })
      assert.instanceOf(created, DraftCreated)
      const existing = yield* api.publicForms.createDraft({
        params: { token: openToken },
        payload: { idempotency_key: "existing-0123456789" }
      })
      assert.instanceOf(existing, DraftExisting)
      const form = yield* api.publicForms.getForm({ params: { token: openToken } })
      assert.strictEqual(form.data.name, "Volunteers 2027")
      const missing = yield* api.publicForms.getForm({ params: { token: "nope" } }).pipe(Effect.flip)
      assert.instanceOf(missing, ApiNotFound)
      if (missing instanceof ApiNotFound) assert.strictEqual(missing.error.code, "FORM_NOT_FOUND")
      const invalid = yield* api.publicForms.saveDraft({
        params: { token: openToken, submissionId: "sub-1" },
        payload: { values: { a: "x".repeat(10_001) } }
      }).pipe(Effect.flip)
      assert.instanceOf(invalid, ApiValidationFailed)
      const summary = yield* api.portal.summary({ params: { token: portalToken } })
      assert.deepStrictEqual(summary.data.sections.map((s) => s.available), [true, false])
      const section = yield* api.portal.submitSection({
        params: { token: portalToken, sectionId: "as-travel" },
        payload: { values: { arrival: "2027-08-20" } }
      })
      assert.strictEqual(section.data.section.status, "submitted")
      const goneError = yield* api.portal.summary({ params: { token: goneToken } }).pipe(Effect.flip)
      assert.instanceOf(goneError, ApiGone)
      const ready = yield* api.system.ready()
      assert.strictEqual(ready.data.status, "ok")
    }))
})
