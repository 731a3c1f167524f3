import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import { inMemorySubmissionsOutPorts } from "../testing/submissionsOut/InMemorySubmissionsOutFixture.js"
import { SubmissionsOutFixture } from "../testing/submissionsOut/SubmissionsOutFixture.js"
import { cellText, csvField, csvHeader, csvRow, fileColumns, slotColumns } from "./exportFormat.js"
import { defaultRetentionPolicy, SubmissionsOutLive, sweepRetention } from "./makeSubmissionsOut.js"
import { SubmissionsOut } from "./SubmissionsOut.js"
import { erasedPayload } from "./SubmissionsOutModel.js"
import { FileStorage } from "../files/FileStorage.js"
import { FileUploads } from "../files/FileUploads.js"

const TestLayer = () => SubmissionsOutLive.layer.pipe(Layer.provideMerge(inMemorySubmissionsOutPorts()))
const day = 86_400_000
const all = { status: undefined, since: undefined } as const

const failure = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.exit(effect), (exit) => (Exit.isFailure(exit) ? exit.cause.reasons.map((r) => ("error" in r ? r.error : r))[0] : undefined))

describe("export format (CONTRACT §12)", () => {
  it.each([
    ["plain", "plain"],
    ["", ""],
    ["a,b", "\"a,b\""],
    ["say \"hi\"", "\"say \"\"hi\"\"\""],
    ["two\r\nlines", "\"two\r\nlines\""],
    ["lf\nonly", "\"lf\nonly\""],
    ["=1+1", "'=1+1"],
    ["+31 6", "'+31 6"],
    ["-5", "'-5"],
    ["@sum", "'@sum"],
    ["\tx", "'\tx"],
    ["\rx", "\"'\rx\""],
    ["=a,b", "\"'=a,b\""],
    ["Zoë 日本", "Zoë 日本"]
  ])("csvField(%j) = %j", (text, expected) => {
    expect(csvField(text)).toBe(expected)
  })

  it.each([
    [undefined, ""],
    [null, ""],
    ["  kept  ", "  kept  "],
    [12, "12"],
    [1.5e21, "1.5e+21"],
    [true, "true"],
    [false, "false"],
    [["a", "b"], "a; b"],
    [[1, true, "x"], "1; true; x"],
    [{ k: 1 }, "{\"k\":1}"]
  ])("cellText(%j) = %j", (value, expected) => {
    expect(cellText(value)).toBe(expected)
  })

  it("a row: fixed columns, then the slugs in the columns' order, absent values empty, the language last, CRLF", () => {
    const columns = { slugs: ["b", "a", "missing"] }
    expect(csvHeader(columns)).toBe("\uFEFFsubmission_id,status,created_at,updated_at,submitted_at,b,a,missing,language\r\n")
    const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
    values["a"] = "x"
    values["b"] = ["1", "2"]
    values["__proto__"] = "own key"
    expect(csvRow(columns, {
      id: "id-1", form_id: "f", status: "draft", idempotency_key: "k", auto_save_count: 0, event_id: null, values,
      tags: [], contact_id: null, language: "nl-BE", created_at: 0, updated_at: 1000, submitted_at: null
    })).toBe("id-1,draft,1970-01-01T00:00:00.000Z,1970-01-01T00:00:01.000Z,,1; 2,x,,nl-BE\r\n")
  })

  it("time-slot cells name each slot as `<name> <date> <start>–<end>`, joined with `; `; an unknown id stays as stored", () => {
    const columns = {
      slugs: ["shifts", "one", "note"],
      time_slots: {
        slugs: ["shifts", "one"],
        labels: { "sl-bar": "Bar 2027-08-20 12:00\u201316:00", "sl-gate": "Gate 2027-08-20 08:00\u201312:00" }
      }
    }
    const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
    values["shifts"] = ["sl-gate", " sl-bar", "sl-gone"]
    values["one"] = "sl-bar"
    values["note"] = "sl-bar"
    expect(csvRow(columns, {
      id: "id-2", form_id: "f", status: "submitted", idempotency_key: "k", auto_save_count: 0, event_id: null, values,
      tags: [], contact_id: null, language: "en", created_at: 0, updated_at: 0, submitted_at: 0
    })).toBe(
      "id-2,submitted,1970-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z," +
        "Gate 2027-08-20 08:00\u201312:00; Bar 2027-08-20 12:00\u201316:00; sl-gone,Bar 2027-08-20 12:00\u201316:00,sl-bar,en\r\n"
    )
  })

  it("file cells name the submission's files of the field, joined with `; ` (quoted as any cell); the ids are never written", () => {
    const columns = { slugs: ["rider", "plot", "note"], file_slugs: ["rider", "plot"] }
    const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>
    values["rider"] = ["f-1", "f-2"]
    values["plot"] = "f-3"
    values["note"] = "f-1"
    const info = (id: string, name: string) => ({ id, name, size: 1, content_type: "application/pdf", sha256: "00" })
    expect(csvRow(columns, {
      id: "id-3", form_id: "f", status: "submitted", idempotency_key: "k", auto_save_count: 0, event_id: null, values,
      tags: [], contact_id: null, language: "en", created_at: 0, updated_at: 0, submitted_at: 0,
      files: { rider: [info("f-1", "Tech, rider.pdf"), info("f-2", "=plot.pdf")] }
    })).toBe(
      "id-3,submitted,1970-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z," +
        "\"Tech, rider.pdf; =plot.pdf\",,f-1,en\r\n"
    )
    expect(fileColumns(["a", "b", "c"], [{ slug: "c", type: "file" }, { slug: "a", type: "file" }, { slug: "b", type: "text" }]))
      .toEqual(["a", "c"])
    expect(fileColumns(["b"], [{ slug: "b", type: "text" }])).toBeUndefined()
  })

  it("slotColumns: the time-slot fields in column order and a label per slot; none without a time-slot field", () => {
    const fields = [{ slug: "shifts", type: "time_slots" }, { slug: "name", type: "text" }, { slug: "extra", type: "time_slots" }]
    const slot = { id: "sl-1", name: "Bar", date: "2027-08-20", start_time: "12:00:00", end_time: "16:00" }
    expect(slotColumns(["name", "extra", "shifts"], fields, [slot])).toEqual({
      slugs: ["extra", "shifts"],
      labels: { "sl-1": "Bar 2027-08-20 12:00\u201316:00" }
    })
    expect(slotColumns(["name"], [{ slug: "name", type: "text" }], [slot])).toBeUndefined()
  })

  it("an erased payload keeps only its string ids and erased: true", () => {
    expect({ ...erasedPayload({ submission_id: "s", schema_id: "f", event_id: null, values: { email: "a@b" }, submitted_at: "t", id: "x", paid: 3 }) })
      .toEqual({ submission_id: "s", schema_id: "f", id: "x", erased: true })
  })
})

describe("SubmissionsOut use cases", () => {
  it.effect("an unknown form or one of another organisation is FormNotFound, before any row is read", () =>
    Effect.gen(function*() {
      const fx = yield* SubmissionsOutFixture
      const out = yield* SubmissionsOut
      const a = yield* fx.newActor
      const b = yield* fx.newActor
      const form = yield* fx.addForm(a.organisation_id, [{ slug: "email", position: 0 }])
      expect(yield* failure(out.listSubmissions(b, form, all, { limit: 10, after: undefined }))).toMatchObject({ _tag: "FormNotFound" })
      expect(yield* failure(out.exportSubmissions(b, form, all))).toMatchObject({ _tag: "FormNotFound" })
      expect(yield* failure(out.getSubmission(b, "x"))).toMatchObject({ _tag: "SubmissionNotFound" })
      const exported = yield* out.exportSubmissions(a, form, all)
      expect(exported.columns).toEqual({ slugs: ["email"] })
      expect(yield* Stream.runCollect(exported.rows)).toEqual([])
    }).pipe(Effect.provide(TestLayer())))

  it.effect("contacts are looked up by the email lower-cased and trimmed", () =>
    Effect.gen(function*() {
      const fx = yield* SubmissionsOutFixture
      const out = yield* SubmissionsOut
      const a = yield* fx.newActor
      const form = yield* fx.addForm(a.organisation_id, [])
      yield* fx.addSubmission({ form_id: form, idempotency_key: "k", status: "submitted", values: {}, created_at: 0, contact_key: "ann@x.nl" })
      const found = yield* out.contacts(a, "  Ann@X.NL ", { limit: 10, after: undefined })
      expect(found.items.map((c) => c.key)).toEqual(["ann@x.nl"])
    }).pipe(Effect.provide(TestLayer())))

  it.effect("the retention sweep at Clock time: DRAFT_RETENTION_DAYS and OUTBOX_RETENTION_DAYS back from now", () =>
    Effect.gen(function*() {
      const fx = yield* SubmissionsOutFixture
      const a = yield* fx.newActor
      const form = yield* fx.addForm(a.organisation_id, [])
      const now = Date.parse("2028-01-01T00:00:00.000Z")
      yield* TestClock.setTime(now)
      const old = yield* fx.addSubmission({ form_id: form, idempotency_key: "old", status: "draft", values: {}, created_at: 0, updated_at: now - 180 * day - 1 })
      const edge = yield* fx.addSubmission({ form_id: form, idempotency_key: "edge", status: "draft", values: {}, created_at: 0, updated_at: now - 180 * day })
      const delivered = yield* fx.addEvent({ organisation_id: a.organisation_id, state: "delivered", created_at: 0, at: now - 30 * day - 1, payload: { v: 1 } })
      const recent = yield* fx.addEvent({ organisation_id: a.organisation_id, state: "delivered", created_at: 0, at: now - 30 * day, payload: { v: 1 } })
      // an upload of the old draft (and its content) goes with it; the edge draft's stays
      const uploads = yield* FileUploads
      const storage = yield* FileStorage
      const put = (submissionId: string) =>
        Effect.gen(function*() {
          const id = yield* uploads.insertPending({ schema_id: form, submission_id: submissionId, field: "f", name: "a.pdf" })
          yield* storage.put(id, Stream.make(new Uint8Array([1, 2, 3])))
          yield* uploads.markStored(id, { size: 3, content_type: "application/pdf", sha256: "00" })
          return id
        })
      const oldFile = yield* put(old)
      const edgeFile = yield* put(edge)
      const result = yield* sweepRetention(defaultRetentionPolicy)
      expect(result).toEqual({ ran: true, drafts_deleted: 1, payloads_emptied: 1, uploads_removed: 1 })
      expect(yield* storage.keys).toEqual([edgeFile])
      expect(yield* storage.keys).not.toContain(oldFile)
      expect([yield* fx.exists(old), yield* fx.exists(edge)]).toEqual([false, true])
      expect({ ...(yield* fx.eventPayload(delivered)) }).toEqual({})
      expect(yield* fx.eventPayload(recent)).toEqual({ v: 1 })
      // A day later the edge draft and the recent payload are past the windows too.
      yield* TestClock.adjust("1 day")
      expect(yield* sweepRetention(defaultRetentionPolicy)).toEqual({ ran: true, drafts_deleted: 1, payloads_emptied: 1, uploads_removed: 1 })
      expect(yield* storage.keys).toEqual([])
      // A shorter policy reaches further.
      const young = yield* fx.addEvent({ organisation_id: a.organisation_id, state: "delivered", created_at: 0, at: now - 1 * day, payload: { v: 2 } })
      expect((yield* sweepRetention(defaultRetentionPolicy)).payloads_emptied).toBe(0)
      expect((yield* sweepRetention({ draftRetentionDays: 1, outboxRetentionDays: 1 })).payloads_emptied).toBe(1)
      expect({ ...(yield* fx.eventPayload(young)) }).toEqual({})
    }).pipe(Effect.provide(TestLayer())))
})
