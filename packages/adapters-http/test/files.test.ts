import { createHash } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FileStorage, FilesLive, FormsConfig, OrganiserAccess, OrganiserLive, PublicFormsLive, SubmissionsOutLive } from "@forms/domain"
import {
  type ConformanceSeed,
  InMemory,
  makeInMemoryFileStorage,
  InMemoryOrganiser,
  InMemoryStore,
  InMemorySubmissionsOut,
  seedField
} from "@forms/domain/memory"
import { AdminConfig } from "../src/index.js"
import { conformanceSeed, seedIds, seedTokens } from "@forms/domain/testing"
import { baseUrl, call, json, serverLayer } from "./harness.js"

// The registration form with three file fields: a PDF rider of at most 1 KiB, two at most; photos; any notes.
const seed: ConformanceSeed = {
  ...conformanceSeed,
  form_schemas: conformanceSeed.form_schemas.map((schema) =>
    schema.id !== seedIds.registration ? schema : {
      ...schema,
      fields: [
        ...schema.fields,
        seedField({ id: "ff-rider", slug: "rider", type: "file", position: 2, validation_rules: { max: 2, max_bytes: 1024, accept: [".pdf"] } }),
        seedField({ id: "ff-photos", slug: "photos", type: "file", position: 3, validation_rules: { accept: ["image/*"] } }),
        seedField({ id: "ff-notes", slug: "notes", type: "file", position: 4 })
      ]
    }
  )
}

// One storage the tests can look into, shared by the uploads and the submit that drops unreferenced ones.
const storage = makeInMemoryFileStorage()
const store = Layer.merge(InMemory.layer(seed), Layer.succeed(FileStorage, storage))
const config = FormsConfig.layer({ fileMaxBytes: 4096, fileMaxBytesPerSubmission: 6000, uploadLimitPerHour: 1000 })
const publicForms = PublicFormsLive.layer.pipe(Layer.provide([store, config]))
const files = FilesLive.layer.pipe(
  Layer.provide(Layer.mergeAll(Layer.succeed(FileStorage, storage), config)),
  Layer.provide(store)
)

// An API key of the form's organisation, and one of another organisation.
const key = `fok_${"Fi1".repeat(14)}x`
const otherKey = `fok_${"Ot2".repeat(14)}x`
let memory: InMemoryStore["Service"] | undefined
const SeedKeys = Layer.effectDiscard(Effect.gen(function*() {
  memory = yield* InMemoryStore
  const access = yield* OrganiserAccess
  // The in-memory organiser knows only organisations it created: the form moves to one of them.
  const own = yield* access.createOrganisation("Own")
  yield* (yield* InMemoryStore).updateSchema(seedIds.registration, (schema) => ({ ...schema, organisation_id: own.id }))
  yield* access.createApiKey({ organisation_id: own.id, name: null, key, created_at: 0 })
  const other = yield* access.createOrganisation("Other")
  yield* access.createApiKey({ organisation_id: other.id, name: null, key: otherKey, created_at: 0 })
}).pipe(Effect.orDie))
const admin = Layer.mergeAll(OrganiserLive.layer, SeedKeys, SubmissionsOutLive.layer.pipe(Layer.provide(InMemorySubmissionsOut.layer))).pipe(
  Layer.provideMerge(InMemoryOrganiser.layer),
  Layer.provideMerge(store),
  Layer.merge(AdminConfig.layer())
)

const base = `/public/forms/${seedTokens.registration}`
const pdf = (size: number) => {
  const head = new TextEncoder().encode("%PDF-1.7\n")
  const out = new Uint8Array(size)
  out.set(head)
  return out
}
const html = new TextEncoder().encode("<!doctype html><html><body><script>alert(1)</script></body></html>")

let keys = 0
const draft = Effect.gen(function*() {
  keys += 1
  const res = yield* call(`${base}/submissions`, json("POST", { idempotency_key: `files-key-${keys}-${Date.now()}` }))
  assert.strictEqual(res.status, 201)
  return JSON.parse(res.text).data.id as string
})

const upload = (submissionId: string, body: Uint8Array, options: { field?: string; name?: string | undefined; headers?: Record<string, string> } = {}) =>
  call(`${base}/submissions/${submissionId}/files${options.field === undefined ? "" : `?field=${options.field}`}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/octet-stream",
      ...(options.name === undefined ? {} : { "x-file-name": options.name }),
      ...options.headers
    }
  })

layer(serverLayer(publicForms, { files, admin }))("upload routes", (it) => {
  describe("POST …/files", () => {
    it.effect("stores a PDF: 201 with its id, name, size, type from the content, SHA-256; the RateLimit headers name `upload`", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const body = pdf(600)
        const res = yield* upload(id, body, { field: "rider", name: encodeURIComponent("Tech rider – 2027.pdf") })
        assert.strictEqual(res.status, 201, res.text)
        const data = JSON.parse(res.text).data
        assert.deepStrictEqual(Object.keys(data), ["id", "name", "size", "content_type", "sha256"])
        assert.strictEqual(data.name, "Tech rider – 2027.pdf")
        assert.strictEqual(data.size, 600)
        assert.strictEqual(data.content_type, "application/pdf")
        assert.strictEqual(data.sha256, createHash("sha256").update(body).digest("hex"))
        assert.match(res.headers.get("ratelimit-policy") ?? "", /^"upload"/)
      }))

    it.effect("an HTML body named .pdf is refused by accept [.pdf]: 422 file_type at the slug", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const res = yield* upload(id, html, { field: "rider", name: "rider.pdf" })
        assert.strictEqual(res.status, 422)
        assert.deepStrictEqual(JSON.parse(res.text).error.fields, {
          rider: [{ rule: "file_type", message: "This type of file is not accepted here." }]
        })
      }))

    it.effect("image/* refuses SVG; text without a signature is text/plain only by a .txt name", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const svg = new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
        assert.strictEqual((yield* upload(id, svg, { field: "photos", name: "a.svg" })).status, 422)
        const txt = yield* upload(id, new TextEncoder().encode("hello"), { field: "notes", name: "a.txt" })
        assert.strictEqual(JSON.parse(txt.text).data.content_type, "text/plain")
        const other = yield* upload(id, new TextEncoder().encode("hello"), { field: "notes", name: "a.html" })
        assert.strictEqual(JSON.parse(other.text).data.content_type, "application/octet-stream")
      }))

    it.effect("field and name are reported together: required when absent, invalid otherwise", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const none = yield* upload(id, pdf(10))
        assert.strictEqual(none.status, 422)
        assert.deepStrictEqual(Object.keys(JSON.parse(none.text).error.fields), ["field", "name"])
        assert.deepStrictEqual(JSON.parse(none.text).error.fields.field[0].rule, "required")
        for (const name of ["a%2Fb.pdf", "a%5Cb.pdf", "a%0Ab.pdf", "a%7Fb", "a%C2%85b", "%E0%A4%A", "x".repeat(256)]) {
          const res = yield* upload(id, pdf(10), { field: "email", name })
          assert.strictEqual(res.status, 422, name)
          const fields = JSON.parse(res.text).error.fields
          assert.deepStrictEqual([fields.field[0].rule, fields.name[0].rule], ["invalid", "invalid"], name)
        }
        assert.strictEqual((yield* upload(id, pdf(10), { field: "rider", name: "é".repeat(255) })).status, 201)
      }))

    it.effect("over max_bytes: 413 FILE_TOO_LARGE by Content-Length before reading, or while reading a chunked body; nothing kept", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const declared = yield* upload(id, pdf(1025), { field: "rider", name: "big.pdf" })
        assert.strictEqual(declared.status, 413)
        assert.strictEqual(JSON.parse(declared.text).error.code, "FILE_TOO_LARGE")
        const chunks = [pdf(800), new Uint8Array(800)]
        const streamed = yield* call(`${base}/submissions/${id}/files?field=rider`, {
          method: "POST",
          headers: { "x-file-name": "big.pdf" },
          body: new ReadableStream({
            pull(controller) {
              const next = chunks.shift()
              if (next === undefined) controller.close()
              else controller.enqueue(next)
            }
          })
        })
        assert.strictEqual(streamed.status, 413)
        // neither counted against the quota: two PDFs still fit
        assert.strictEqual((yield* upload(id, pdf(100), { field: "rider", name: "a.pdf" })).status, 201)
        assert.strictEqual((yield* upload(id, pdf(100), { field: "rider", name: "b.pdf" })).status, 201)
      }))

    it.effect("a Content-Length over the server's cap is 413 before the token is looked up", () =>
      Effect.gen(function*() {
        const res = yield* call(`/public/forms/nope/submissions/nope/files`, {
          method: "POST",
          headers: { "content-length": "5000", "x-file-name": "a.pdf" },
          body: new Uint8Array(5000)
        })
        assert.strictEqual(res.status, 413)
      }))

    it.effect("the field's max files, then the submission's bytes: 409 FILE_QUOTA", () =>
      Effect.gen(function*() {
        const id = yield* draft
        for (const name of ["a.pdf", "b.pdf"]) assert.strictEqual((yield* upload(id, pdf(10), { field: "rider", name })).status, 201)
        const third = yield* upload(id, pdf(10), { field: "rider", name: "c.pdf" })
        assert.strictEqual(third.status, 409)
        assert.strictEqual(JSON.parse(third.text).error.code, "FILE_QUOTA")
        assert.strictEqual((yield* upload(id, new Uint8Array(4000), { field: "notes", name: "n1" })).status, 201)
        assert.strictEqual((yield* upload(id, new Uint8Array(2500), { field: "notes", name: "n2" })).status, 409)
      }))

    it.effect("order: unknown token 404, unknown submission 404, submitted draft 409", () =>
      Effect.gen(function*() {
        assert.strictEqual(JSON.parse((yield* call(`/public/forms/nope/submissions/x/files?field=rider`, { method: "POST", body: pdf(10) })).text).error.code, "FORM_NOT_FOUND")
        assert.strictEqual(JSON.parse((yield* upload("00000000-0000-4000-8000-0000deadbeef", pdf(10), { field: "rider", name: "a.pdf" })).text).error.code, "SUBMISSION_NOT_FOUND")
        const id = yield* draft
        const submitted = yield* call(`${base}/submissions/${id}/submit`, json("POST", { values: { email: "a@b.nl" } }))
        assert.strictEqual(submitted.status, 200, submitted.text)
        const late = yield* upload(id, pdf(10), { field: "nope" })
        assert.strictEqual(late.status, 409)
        assert.strictEqual(JSON.parse(late.text).error.code, "SUBMISSION_ALREADY_SUBMITTED")
      }))

    it.effect("concurrent uploads to one draft each get their own id", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const answers = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => upload(id, new Uint8Array(100 + i), { field: "notes", name: `n${i}.bin` })),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(answers.map((a) => a.status), Array(8).fill(201))
        assert.strictEqual(new Set(answers.map((a) => JSON.parse(a.text).data.id)).size, 8)
      }))
  })

  describe("file values at save and submit", () => {
    it.effect("`in`: an id of another submission, of another field, or unknown; `max` on the count; the own ids pass", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const other = yield* draft
        const mine = JSON.parse((yield* upload(id, pdf(10), { field: "rider", name: "a.pdf" })).text).data.id
        const note = JSON.parse((yield* upload(id, pdf(10), { field: "notes", name: "n.pdf" })).text).data.id
        const theirs = JSON.parse((yield* upload(other, pdf(10), { field: "rider", name: "b.pdf" })).text).data.id
        const save = (values: unknown) => call(`${base}/submissions/${id}`, json("PUT", { values }))
        for (const rider of [[theirs], [note], ["00000000-0000-4000-8000-0000deadbeef"], [mine, theirs]]) {
          const res = yield* save({ rider })
          assert.strictEqual(res.status, 422, res.text)
          assert.deepStrictEqual(JSON.parse(res.text).error.fields.rider.map((e: { rule: string }) => e.rule), ["in"])
        }
        const many = yield* save({ rider: [mine, mine, "x"] })
        assert.deepStrictEqual(JSON.parse(many.text).error.fields.rider.map((e: { rule: string }) => e.rule), ["in", "max"])
        const wrongShape = yield* save({ rider: [1] })
        assert.deepStrictEqual(JSON.parse(wrongShape.text).error.fields.rider.map((e: { rule: string }) => e.rule), ["invalid"])
        assert.strictEqual((yield* save({ rider: mine, notes: [note] })).status, 200)
        const submitted = yield* call(`${base}/submissions/${id}/submit`, json("POST", { values: { email: "f@b.nl" } }))
        assert.strictEqual(submitted.status, 200, submitted.text)
        assert.deepStrictEqual(JSON.parse(submitted.text).data.values.rider, mine)
      }))

    it.effect("a submit checks the stored values too: an upload removed after the save is `in`", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const file = JSON.parse((yield* upload(id, pdf(10), { field: "rider", name: "a.pdf" })).text).data.id
        assert.strictEqual((yield* call(`${base}/submissions/${id}`, json("PUT", { values: { rider: [file] } }))).status, 200)
        assert.strictEqual((yield* call(`${base}/submissions/${id}/files/${file}`, { method: "DELETE" })).status, 204)
        const res = yield* call(`${base}/submissions/${id}/submit`, json("POST", { values: { email: "f@b.nl" } }))
        assert.strictEqual(res.status, 422)
        assert.deepStrictEqual(JSON.parse(res.text).error.fields.rider.map((e: { rule: string }) => e.rule), ["in"])
      }))
  })

  describe("files in answers", () => {
    it.effect("a draft lists every stored upload; a submit keeps what its values reference and deletes the rest, content too", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const stored = (body: Uint8Array, field: string, name: string) =>
          Effect.map(upload(id, body, { field, name }), (res) => JSON.parse(res.text).data as Record<string, unknown>)
        const a = yield* stored(pdf(30), "rider", "a.pdf")
        const b = yield* stored(pdf(40), "rider", "b.pdf")
        const n = yield* stored(pdf(50), "notes", "n.pdf")
        const saved = yield* call(`${base}/submissions/${id}`, json("PUT", { values: { rider: [a["id"]] } }))
        assert.strictEqual(saved.status, 200, saved.text)
        assert.deepStrictEqual(JSON.parse(saved.text).data.files, { rider: [a, b], notes: [n] })

        const submitted = yield* call(`${base}/submissions/${id}/submit`, json("POST", { values: { email: "files@b.nl" } }))
        assert.strictEqual(submitted.status, 200, submitted.text)
        assert.deepStrictEqual(JSON.parse(submitted.text).data.files, { rider: [a] })
        const keys = [...(yield* storage.keys)]
        assert.include(keys, a["id"])
        assert.notInclude(keys, b["id"])
        assert.notInclude(keys, n["id"])

        // the event (and so every webhook delivery of it) carries the same files
        const outbox = memory === undefined ? [] : yield* memory.outbox
        const event = outbox.find((e) => e.type === "submission.submitted" && e.payload["submission_id"] === id)
        assert.deepStrictEqual(event?.payload["files"], { rider: [a] })

        const admin = (path: string) => call(path, { headers: { authorization: `Bearer ${key}` } })
        const one = yield* admin(`/admin/submissions/${id}`)
        assert.strictEqual(one.status, 200, one.text)
        assert.deepStrictEqual(JSON.parse(one.text).data.files, { rider: [a] })
        const listed = JSON.parse((yield* admin(`/admin/forms/${seedIds.registration}/submissions?limit=100`)).text).data as Array<{ id: string; files?: unknown }>
        assert.deepStrictEqual(listed.find((s) => s.id === id)?.files, { rider: [a] })
        const ndjson = yield* admin(`/admin/forms/${seedIds.registration}/export?format=ndjson`)
        const line = ndjson.text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)).find((l) => l.id === id)
        assert.deepStrictEqual(line?.files, { rider: [a] })
        const csv = (yield* admin(`/admin/forms/${seedIds.registration}/export?format=csv`)).text.split("\r\n")
        const header = csv[0]?.replace("\uFEFF", "").split(",") ?? []
        const row = csv.find((l) => l.startsWith(id))?.split(",") ?? []
        assert.strictEqual(row[header.indexOf("rider")], "a.pdf")
        assert.strictEqual(row[header.indexOf("notes")], "")
      }))

    it.effect("two files of one field are named in one CSV cell, joined with `; `", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const ids: Array<string> = []
        for (const name of ["one.pdf", "two.pdf"]) ids.push(JSON.parse((yield* upload(id, pdf(10), { field: "rider", name })).text).data.id)
        const submitted = yield* call(`${base}/submissions/${id}/submit`, json("POST", { values: { email: "two@b.nl", rider: ids } }))
        assert.strictEqual(submitted.status, 200, submitted.text)
        const csv = (yield* call(`/admin/forms/${seedIds.registration}/export?format=csv`, { headers: { authorization: `Bearer ${key}` } })).text
        const header = csv.split("\r\n")[0]?.replace("\uFEFF", "").split(",") ?? []
        const row = csv.split("\r\n").find((l) => l.startsWith(id))?.split(",") ?? []
        assert.strictEqual(row[header.indexOf("rider")], "one.pdf; two.pdf")
      }))
  })

  describe("GET /admin/files/{id}", () => {
    it.effect("streams the content byte for byte as an attachment never rendered; another organisation's key gets 404", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const body = pdf(900)
        body.set([0xff, 0x00, 0xc3, 0x28], 500)
        const file = JSON.parse((yield* upload(id, body, { field: "rider", name: encodeURIComponent("Rider \"ü\".pdf") })).text).data.id
        const origin = yield* baseUrl
        const get = (k: string, fileId: string) =>
          Effect.promise(async () => {
            const response = await fetch(`${origin}/admin/files/${fileId}`, { headers: { authorization: `Bearer ${k}` } })
            return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
          })
        const res = yield* get(key, file)
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual(res.bytes, body)
        assert.strictEqual(res.headers.get("content-type"), "application/octet-stream")
        assert.strictEqual(res.headers.get("content-disposition"), `attachment; filename="Rider ___.pdf"; filename*=UTF-8''Rider%20%22%C3%BC%22.pdf`)
        assert.strictEqual(res.headers.get("x-content-type-options"), "nosniff")
        assert.strictEqual(res.headers.get("content-security-policy"), "sandbox")
        assert.strictEqual(res.headers.get("cache-control"), "no-store")
        for (const [k, fileId] of [[otherKey, file], [key, "00000000-0000-4000-8000-0000deadbeef"], [key, "x"]] as const) {
          const refused = yield* get(k, fileId)
          assert.strictEqual(refused.status, 404)
          assert.strictEqual(JSON.parse(new TextDecoder().decode(refused.bytes)).error.code, "FILE_NOT_FOUND")
        }
        assert.strictEqual((yield* get("fok_nope", file)).status, 401)
      }))
  })

  describe("erasure", () => {
    it.effect("erasing a submission deletes its uploads' contents: storage holds nothing of it afterwards", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const ids: Array<string> = []
        for (const name of ["a.pdf", "b.pdf"]) {
          ids.push(JSON.parse((yield* upload(id, pdf(50), { field: "rider", name })).text).data.id)
        }
        const kept = yield* draft
        const other = JSON.parse((yield* upload(kept, pdf(50), { field: "rider", name: "c.pdf" })).text).data.id
        assert.includeMembers([...(yield* storage.keys)], [...ids, other])
        const erased = yield* call(`/admin/submissions/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } })
        assert.strictEqual(erased.status, 204, erased.text)
        const left = yield* storage.keys
        for (const file of ids) assert.notInclude([...left], file)
        assert.include([...left], other)
      }))
  })

  describe("DELETE …/files/{id}", () => {
    it.effect("removes an upload of the draft once (204, then 404 FILE_NOT_FOUND); another draft's id is 404", () =>
      Effect.gen(function*() {
        const id = yield* draft
        const other = yield* draft
        const file = JSON.parse((yield* upload(id, pdf(10), { field: "rider", name: "a.pdf" })).text).data.id
        assert.strictEqual((yield* call(`${base}/submissions/${other}/files/${file}`, { method: "DELETE" })).status, 404)
        const removed = yield* call(`${base}/submissions/${id}/files/${file}`, { method: "DELETE" })
        assert.strictEqual(removed.status, 204)
        const again = yield* call(`${base}/submissions/${id}/files/${file}`, { method: "DELETE" })
        assert.strictEqual(again.status, 404)
        assert.strictEqual(JSON.parse(again.text).error.code, "FILE_NOT_FOUND")
      }))
  })
})

// `upload_bytes` on its own store and budget: 1000 bytes a day per client and form.
const bytesStore = InMemory.layer(seed)
const bytesConfig = FormsConfig.layer({ fileMaxBytes: 4096, uploadLimitPerHour: 1000, uploadBytesPerDay: 1000 })
const bytesLayer = serverLayer(PublicFormsLive.layer.pipe(Layer.provide([bytesStore, bytesConfig])), {
  files: FilesLive.layer.pipe(Layer.provide(Layer.mergeAll(bytesStore, bytesConfig)))
})

layer(bytesLayer)("upload_bytes", (it) => {
  it.effect("both policies in the RateLimit headers; stored bytes count, and once the day's bytes are reached: 429 with Retry-After", () =>
    Effect.gen(function*() {
      const id = yield* draft
      const first = yield* upload(id, pdf(600), { field: "notes", name: "a.pdf" })
      assert.strictEqual(first.status, 201, first.text)
      assert.strictEqual(first.headers.get("ratelimit-policy"), `"upload";q=1000;w=3600, "upload_bytes";q=1000;w=86400`)
      assert.match(first.headers.get("ratelimit") ?? "", /^"upload";r=999;t=\d+, "upload_bytes";r=400;t=\d+$/)
      // a refused upload (over max_bytes) counts no bytes
      assert.strictEqual((yield* upload(id, new Uint8Array(4097), { field: "notes", name: "big.bin" })).status, 413)
      const second = yield* upload(id, pdf(500), { field: "notes", name: "b.pdf" })
      assert.strictEqual(second.status, 201, second.text)
      assert.match(second.headers.get("ratelimit") ?? "", /"upload_bytes";r=0;t=\d+$/)
      const refused = yield* upload(id, pdf(10), { field: "notes", name: "c.pdf" })
      assert.strictEqual(refused.status, 429, refused.text)
      assert.strictEqual(JSON.parse(refused.text).error.code, "RATE_LIMITED")
      assert.match(refused.headers.get("ratelimit-policy") ?? "", /^"upload_bytes";q=1000;w=86400, "upload";q=1000;w=3600$/)
      // until the first upload's bytes leave the day
      const retryAfter = Number(refused.headers.get("retry-after"))
      assert.isTrue(retryAfter > 86_000 && retryAfter <= 86_400, String(retryAfter))
    }))
})
