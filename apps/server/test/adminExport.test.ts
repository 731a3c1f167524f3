import { assert, layer } from "@effect/vitest"
import { parse } from "csv-parse/sync"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type IncomingMessage, request as httpRequest } from "node:http"
import { adminCall, bearer, data, keyOf } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { baseUrl, eventually, liveOptions, testServer } from "./harness.js"
import { exportForm, storeMany, storeSubmission } from "./submissionsOutSupport.js"

const header = "submission_id,status,created_at,updated_at,submitted_at,note,a_first,b_second,z_last,language"

/** A GET whose body is read up to its first chunk, then paused: the response, still open. */
const openExport = (base: string, path: string, key: string) =>
  new Promise<{ res: IncomingMessage; first: Buffer; destroy: () => void }>((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { headers: bearer(key) }, (res) => {
      res.once("data", (chunk: Buffer) => {
        res.pause()
        resolve({ res, first: chunk, destroy: () => req.destroy() })
      })
      res.once("error", () => {})
    })
    req.on("error", () => {})
    req.once("error", reject)
    req.end()
  })

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`export (${backend})`, (it) => {
    it.effect("CSV: RFC 4180 read back by csv-parse cell by cell (quotes, commas, line breaks, non-ASCII, formulas); NDJSON", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const form = `fs-export-${Date.now().toString(36)}`
        yield* exportForm(form)
        const t = Date.parse("2027-05-01T08:00:00.000Z")
        const s1 = yield* storeSubmission(form, "k1", {
          note: "He said \"hi\", then left\r\nline two\nline three",
          a_first: "Zoë ñ 日本 🎪",
          b_second: "=SUM(A1:A2)",
          z_last: ["x, y", "z"],
          dropped_later: "not exported"
        }, t)
        const s2 = yield* storeSubmission(form, "k2", { note: "+1", a_first: "-2", b_second: "@x", z_last: "\tTab" }, t + 1000)
        const s3 = yield* storeSubmission(form, "k3", { a_first: 42.5, b_second: false, z_last: "\rCR", note: "plain" }, t + 2000, "draft")
        const res = yield* adminCall(key, "GET", `/admin/forms/${form}/export`)
        assert.strictEqual(res.status, 200, res.text)
        assert.strictEqual(res.headers.get("content-type"), "text/csv; charset=utf-8")
        assert.strictEqual(res.headers.get("content-disposition"), `attachment; filename="${form}.csv"`)
        // (fetch's text() drops the byte-order mark the CSV starts with; the test below reads the bytes)
        assert.isTrue(res.text.startsWith(`${header}\r\n`))
        assert.isTrue(res.text.endsWith("\r\n"))
        const rows = parse(res.text, { record_delimiter: "\r\n", relax_column_count: false }) as Array<Array<string>>
        assert.deepStrictEqual(rows, [
          header.split(","),
          [s1, "submitted", "2027-05-01T08:00:00.000Z", "2027-05-01T08:00:00.000Z", "2027-05-01T08:00:00.000Z",
            "He said \"hi\", then left\r\nline two\nline three", "Zoë ñ 日本 🎪", "'=SUM(A1:A2)", "x, y; z", "en"],
          [s2, "submitted", "2027-05-01T08:00:01.000Z", "2027-05-01T08:00:01.000Z", "2027-05-01T08:00:01.000Z",
            "'+1", "'-2", "'@x", "'\tTab", "en"],
          [s3, "draft", "2027-05-01T08:00:02.000Z", "2027-05-01T08:00:02.000Z", "", "plain", "42.5", "false", "'\rCR", "en"]
        ])
        const drafts = parse((yield* adminCall(key, "GET", `/admin/forms/${form}/export?status=draft&format=csv`)).text) as Array<Array<string>>
        assert.deepStrictEqual(drafts.map((r) => r[0]), ["submission_id", s3])
        // NDJSON: one submission per line, the list item's shape.
        const nd = yield* adminCall(key, "GET", `/admin/forms/${form}/export?format=ndjson`)
        assert.strictEqual(nd.status, 200)
        assert.strictEqual(nd.headers.get("content-type"), "application/x-ndjson")
        const lines = nd.text.split("\n")
        assert.strictEqual(lines.pop(), "")
        const items = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
        assert.deepStrictEqual(items.map((i) => i["id"]), [s1, s2, s3])
        for (const item of items) assert.deepStrictEqual(item, data(yield* adminCall(key, "GET", `/admin/submissions/${String(item["id"])}`)))
        assert.strictEqual((items[0]!["values"] as Record<string, unknown>)["dropped_later"], "not exported")
      }))

    it.effect("CSV: starts with a UTF-8 byte-order mark; time-slot cells name each slot as `<name> <date> <start>–<end>`", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const form = `fs-slots-${Date.now().toString(36)}`
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO form_schemas (id, organisation_id, event_id, name, type, status, revision)
          VALUES (${form}, 'org-t', 'ev-t', 'Shifts export', 'volunteer', 'archived', 1)`
        yield* sql`INSERT INTO form_fields (id, schema_id, section_id, slug, label, type, position) VALUES
          (${`${form}-n`}, ${form}, NULL, 'name', 'Name', 'text', 1), (${`${form}-s`}, ${form}, NULL, 'shifts', 'Shifts', 'time_slots', 2)`
        const t = Date.parse("2027-05-01T08:00:00.000Z")
        const s1 = yield* storeSubmission(form, "k1", { name: "Zoë", shifts: ["ts-1", "ts-deleted"] }, t)
        const s2 = yield* storeSubmission(form, "k2", { name: "Ann", shifts: "ts-1" }, t + 1000)
        const base = yield* baseUrl
        const bytes = yield* Effect.promise(async () =>
          new Uint8Array(await (await fetch(new URL(`/admin/forms/${form}/export`, base), { headers: bearer(key) })).arrayBuffer()))
        assert.deepStrictEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf])
        const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)
        assert.isTrue(text.startsWith("\uFEFFsubmission_id,"))
        const rows = parse(text.slice(1), { record_delimiter: "\r\n" }) as Array<Array<string>>
        const night = "Night 2027-08-20 22:00\u201302:00"
        assert.deepStrictEqual(rows.map((r) => [r[0], ...r.slice(5)]), [
          ["submission_id", "name", "shifts", "language"],
          [s1, "Zoë", `${night}; ts-deleted`, "en"],
          [s2, "Ann", night, "en"]
        ])
      }))

    it.effect("a form with no submissions: the header line (CSV), an empty body (NDJSON), 200", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const form = `fs-empty-${Date.now().toString(36)}`
        yield* exportForm(form)
        const csv = yield* adminCall(key, "GET", `/admin/forms/${form}/export`)
        assert.strictEqual(csv.status, 200)
        assert.strictEqual(csv.text, `${header}\r\n`)
        const nd = yield* adminCall(key, "GET", `/admin/forms/${form}/export?format=ndjson`)
        assert.strictEqual(nd.status, 200)
        assert.strictEqual(nd.text, "")
      }))

    it.effect("streamed: the first bytes leave before the last row is read; a client gone mid-export releases the cursor and its connection", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const form = `fs-big-${Date.now().toString(36)}`
        yield* exportForm(form)
        const rows = backend === "postgres" ? 20_000 : 6_000
        yield* storeMany(form, rows, 2_000)
        const sql = yield* SqlClient.SqlClient
        const base = yield* baseUrl
        const open = yield* Effect.promise(() => openExport(base, `/admin/forms/${form}/export`, key))
        assert.isTrue(open.first.toString("utf8").startsWith(`\uFEFF${header}`))
        const some = (yield* storeSubmission(form, "probe", { note: "probe" }, Date.parse("2030-01-01")))
        if (backend === "postgres") {
          // The export holds its cursor in an open transaction while the client does not read.
          const holding = sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'idle in transaction' AND query LIKE '%forms_export%'`
          assert.isAtLeast((yield* eventually(holding, (r) => (r[0]?.n ?? 0) >= 1))[0]!.n, 1)
          open.destroy()
          yield* eventually(holding, (r) => r[0]?.n === 0)
        } else {
          // The one connection is not held: other requests are answered while the export waits for its reader.
          const started = Date.now()
          const one = yield* adminCall(key, "GET", `/admin/submissions/${some}`)
          assert.strictEqual(one.status, 200)
          assert.isBelow(Date.now() - started, 5_000)
          open.destroy()
        }
        // Afterwards the database serves everything, a whole export included.
        const whole = yield* adminCall(key, "GET", `/admin/forms/${form}/export?format=ndjson`)
        assert.strictEqual(whole.status, 200)
        assert.strictEqual(whole.text.split("\n").length - 1, rows + 1)
      }))
  })
}

reportSkippedPostgres("Export")
