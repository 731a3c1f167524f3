import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { adminCall, data, keyOf } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, liveOptions, testServer } from "./harness.js"

for (const backend of backends) {
  const filesDir = mkdtempSync(join(tmpdir(), "forms-files-erasure-"))
  const stored = () => readdirSync(filesDir).filter((name) => name !== ".incoming")
  layer(testServer(backend, { FILES_DIR: filesDir }), liveOptions)(`files on the server (${backend})`, (it) => {
    it.effect("an upload is stored in FILES_DIR under its id, downloaded byte for byte; erasure leaves nothing of it", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const created = yield* adminCall(key, "POST", "/admin/forms", {
          name: "Riders",
          type: "registration",
          event_id: null,
          status: "published",
          fields: [{ slug: "rider", label: "Rider", type: "file", validation_rules: { accept: [".pdf"] } }]
        })
        assert.strictEqual(created.status, 201, created.text)
        const form = data(created)
        const base = `/public/forms/${String(form["public_token"])}`
        const draft = String(dataOf(yield* call(`${base}/submissions`, { method: "POST", body: { idempotency_key: `files-${Date.now()}` } }))["id"])
        const content = `%PDF-1.7\n${"x".repeat(2000)}\n%%EOF`
        const uploaded = yield* call(`${base}/submissions/${draft}/files?field=rider`, {
          method: "POST",
          raw: content,
          headers: { "content-type": "application/pdf", "x-file-name": "rider.pdf" }
        })
        assert.strictEqual(uploaded.status, 201, uploaded.text)
        const file = String(dataOf(uploaded)["id"])
        assert.include(stored(), file)
        const spare = yield* call(`${base}/submissions/${draft}/files?field=rider`, {
          method: "POST",
          raw: content,
          headers: { "content-type": "application/pdf", "x-file-name": "spare.pdf" }
        })
        const spareId = String(dataOf(spare)["id"])
        assert.include(stored(), spareId)
        const download = yield* adminCall(key, "GET", `/admin/files/${file}`)
        assert.strictEqual(download.status, 200)
        assert.strictEqual(download.text, content)
        const submitted = yield* call(`${base}/submissions/${draft}/submit`, { method: "POST", body: { values: { rider: [file] } } })
        assert.strictEqual(submitted.status, 200, submitted.text)
        // the answer, the organiser's read and the export list the referenced upload; the spare one is gone
        assert.deepStrictEqual(dataOf(submitted)["files"], { rider: [dataOf(uploaded)] })
        assert.notInclude(stored(), spareId)
        assert.deepStrictEqual(data(yield* adminCall(key, "GET", `/admin/submissions/${draft}`))["files"], { rider: [dataOf(uploaded)] })
        const ndjson = (yield* adminCall(key, "GET", `/admin/forms/${String(form["id"])}/export?format=ndjson`)).text
        assert.deepStrictEqual(JSON.parse(ndjson.trim().split("\n")[0] ?? "{}")["files"], { rider: [dataOf(uploaded)] })
        const csv = (yield* adminCall(key, "GET", `/admin/forms/${String(form["id"])}/export?format=csv`)).text.split("\r\n")
        const header = csv[0]?.replace("\uFEFF", "").split(",") ?? []
        assert.strictEqual(csv[1]?.split(",")[header.indexOf("rider")], "rider.pdf")
        assert.strictEqual((yield* adminCall(key, "DELETE", `/admin/submissions/${draft}`)).status, 204)
        assert.notInclude(stored(), file)
        assert.strictEqual((yield* adminCall(key, "GET", `/admin/files/${file}`)).status, 404)
      }))
  })
}

reportSkippedPostgres("files on the server")
