/**
 * The conformance suite of SubmissionRecords, OutboxAdmin and Retention: every adapter (in memory, PGlite,
 * PostgreSQL) must pass it unchanged. Each test makes organisations of its own, so tests sharing a store never meet.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option, Stream } from "effect"
import type { PageRequest } from "../../shared/paging.js"
import { OutboxAdmin } from "../../submissionsOut/OutboxAdmin.js"
import { Retention } from "../../submissionsOut/Retention.js"
import { SubmissionRecords } from "../../submissionsOut/SubmissionRecords.js"
import { failureTag } from "../organiser/organiserTestSupport.js"
import { SubmissionsOutFixture } from "./SubmissionsOutFixture.js"

const t0 = Date.parse("2027-03-01T10:00:00.000Z")
const first = <K>(limit = 200): PageRequest<K> => ({ limit, after: undefined })
const all = { status: undefined, since: undefined } as const
const day = 86_400_000

export type SubmissionsOutPorts = SubmissionRecords | OutboxAdmin | Retention | SubmissionsOutFixture

export const submissionsOutConformance = (
  name: string,
  makeLayer: () => Layer.Layer<SubmissionsOutPorts, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("submissions out ports", (it) => {
      const form = Effect.gen(function*() {
        const fx = yield* SubmissionsOutFixture
        const actor = yield* fx.newActor
        const formId = yield* fx.addForm(actor.organisation_id, [
          { slug: "z_late", position: 1, section: { id: "s2", position: 2 } },
          { slug: "email", position: 0 },
          { slug: "b_first", position: 0, section: { id: "s1", position: 1 } },
          { slug: "a_first", position: 0, section: { id: "s1", position: 1 } },
          { slug: "name", position: 1 }
        ])
        return { fx, actor, formId }
      })

      it.effect("columns in §12 order; another organisation's form is unknown", () =>
        Effect.gen(function*() {
          const records = yield* SubmissionRecords
          const { actor, formId, fx } = yield* form
          const other = yield* fx.newActor
          expect(yield* records.formColumns(actor.organisation_id, formId)).toEqual(
            Option.some({ slugs: ["email", "name", "a_first", "b_first", "z_late"] })
          )
          expect(yield* records.formColumns(other.organisation_id, formId)).toEqual(Option.none())
          expect(yield* records.formColumns(actor.organisation_id, "no-such-form")).toEqual(Option.none())
          // Section ids are the form's own names: another form's sections of the same ids (another organisation's
          // here, in the opposite order) change nothing.
          yield* fx.addForm(other.organisation_id, [
            { slug: "a_first", position: 0, section: { id: "s1", position: 9 } },
            { slug: "z_late", position: 0, section: { id: "s2", position: 0 } }
          ])
          expect(yield* records.formColumns(actor.organisation_id, formId)).toEqual(
            Option.some({ slugs: ["email", "name", "a_first", "b_first", "z_late"] })
          )
        }))

      it.effect("a form's submissions oldest first by keyset, stable while rows are added; status and since filters", () =>
        Effect.gen(function*() {
          const records = yield* SubmissionRecords
          const { actor, formId, fx } = yield* form
          const ids: Array<string> = []
          for (let i = 0; i < 5; i++) {
            ids.push(yield* fx.addSubmission({
              form_id: formId, idempotency_key: `k${i}`, status: i % 2 === 0 ? "submitted" : "draft",
              values: { email: `p${i}@x.nl`, dropped_slug: "kept" }, tags: ["b", "a"], created_at: t0 + Math.floor(i / 2) * 1000,
              updated_at: t0 + i * 10_000, ...(i === 0 ? { language: "de-CH" } : {})
            }))
          }
          const expected = [...ids].sort((a, b) => {
            const ia = ids.indexOf(a), ib = ids.indexOf(b)
            return Math.floor(ia / 2) - Math.floor(ib / 2) || (a < b ? -1 : a > b ? 1 : 0)
          })
          const page1 = yield* records.list(actor.organisation_id, formId, all, first(2))
          expect(page1.items.map((s) => s.id)).toEqual(expected.slice(0, 2))
          expect(page1.more).toBe(true)
          // A row added meanwhile (newer) neither repeats nor shifts a page.
          const late = yield* fx.addSubmission({ form_id: formId, idempotency_key: "late", status: "draft", values: {}, created_at: t0 + 60_000 })
          const last = page1.items[1]!
          const page2 = yield* records.list(actor.organisation_id, formId, all, { limit: 3, after: { created_at: last.created_at, id: last.id } })
          expect(page2.items.map((s) => s.id)).toEqual(expected.slice(2, 5))
          expect(page2.more).toBe(true)
          const item = page1.items[0]!
          expect(item.form_id).toBe(formId)
          expect(item.tags).toEqual(["a", "b"])
          expect(item.contact_id).toBeNull()
          expect(item.values["dropped_slug"]).toBe("kept")
          const submitted = yield* records.list(actor.organisation_id, formId, { status: "submitted", since: undefined }, first())
          expect(submitted.items.map((s) => s.id).sort()).toEqual([ids[0], ids[2], ids[4]].sort())
          const since = yield* records.list(actor.organisation_id, formId, { status: "draft", since: t0 + 30_000 }, first())
          expect(since.items.map((s) => s.id)).toEqual([ids[3], late])
          const exported = yield* Stream.runCollect(records.exportRows(actor.organisation_id, formId, { status: undefined, since: undefined }))
          expect(exported.map((s) => s.id)).toEqual([...expected, late])
          // Each with its language (CONTRACT §19): the first as recorded, the others the default.
          expect(exported.map((s) => [s.id, s.language])).toEqual([...expected, late].map((id) => [id, id === ids[0] ? "de-CH" : "en"]))
          const other = yield* fx.newActor
          expect(yield* records.find(other.organisation_id, ids[0]!)).toEqual(Option.none())
          expect(Option.getOrThrow(yield* records.find(actor.organisation_id, ids[0]!)).id).toBe(ids[0])
          expect(yield* records.find(actor.organisation_id, "not-a-uuid")).toEqual(Option.none())
          expect((yield* records.list(other.organisation_id, formId, all, first())).items).toEqual([])
          expect((yield* Stream.runCollect(records.exportRows(other.organisation_id, formId, all))).length).toBe(0)
        }))

      it.effect("erasure: claims, payload values, contact link gone; key and value reusable; event and audit recorded", () =>
        Effect.gen(function*() {
          const records = yield* SubmissionRecords
          const { actor, formId, fx } = yield* form
          const other = yield* fx.newActor
          const marker = `marker-${Math.random().toString(36).slice(2)}@x.nl`
          const id = yield* fx.addSubmission({
            form_id: formId, idempotency_key: "erase-me", status: "submitted", values: { email: marker }, tags: ["solo"],
            created_at: t0, claims: [{ slug: "email", value: marker }], contact_key: marker, event: "delivered"
          })
          const keep = yield* fx.addSubmission({
            form_id: formId, idempotency_key: "keep", status: "submitted", values: { email: "shared@x.nl" }, tags: ["x"],
            created_at: t0 + 1, contact_key: "shared@x.nl"
          })
          const shared = yield* fx.addSubmission({
            form_id: formId, idempotency_key: "shared-2", status: "submitted", values: { email: "shared@x.nl" }, tags: ["y"],
            created_at: t0 + 2, contact_key: "shared@x.nl"
          })
          expect(yield* failureTag(records.erase(other, id, t0))).toBe("SubmissionNotFound")
          expect(yield* fx.exists(id)).toBe(true)
          expect(yield* failureTag(records.erase(actor, "not-a-uuid", t0))).toBe("SubmissionNotFound")
          yield* records.erase(actor, id, t0 + 5)
          expect(yield* fx.exists(id)).toBe(false)
          expect(yield* fx.claimsOf(id)).toBe(0)
          const events = yield* fx.eventsOf(id)
          const submittedEvent = events.find((e) => e.type === "submission.submitted")!
          expect({ ...submittedEvent.payload }).toEqual({ submission_id: id, schema_id: formId, organisation_id: actor.organisation_id, erased: true })
          const erasedEvent = events.find((e) => e.type === "submission.erased")!
          expect(erasedEvent.payload).toMatchObject({ submission_id: id, schema_id: formId, organisation_id: actor.organisation_id })
          expect(JSON.stringify(events)).not.toContain(marker)
          expect((yield* records.contacts(actor.organisation_id, marker, first())).items).toEqual([])
          expect(yield* fx.audit(actor.organisation_id)).toEqual([{ action: "submission.erased", resource_id: id }])
          // The idempotency key and the unique value may be used again.
          const again = yield* fx.addSubmission({
            form_id: formId, idempotency_key: "erase-me", status: "submitted", values: { email: marker }, created_at: t0 + 9,
            claims: [{ slug: "email", value: marker }]
          })
          expect(yield* fx.claimsOf(again)).toBe(1)
          // A contact with submissions left keeps them, its tags recomputed.
          const [contact] = (yield* records.contacts(actor.organisation_id, "shared@x.nl", first())).items
          expect(contact?.submission_ids).toEqual([keep, shared])
          expect(contact?.tags).toEqual(["x", "y"])
          yield* records.erase(actor, shared, t0 + 10)
          const [after] = (yield* records.contacts(actor.organisation_id, "shared@x.nl", first())).items
          expect(after).toMatchObject({ id: contact?.id, key: "shared@x.nl", tags: ["x"], submission_ids: [keep] })
          expect(yield* failureTag(records.erase(actor, shared, t0 + 11))).toBe("SubmissionNotFound")
        }))

      it.effect("contacts by key, scoped; erasing a contact erases every submission linked to it", () =>
        Effect.gen(function*() {
          const records = yield* SubmissionRecords
          const { actor, formId, fx } = yield* form
          const other = yield* fx.newActor
          const a = yield* fx.addSubmission({ form_id: formId, idempotency_key: "c1", status: "submitted", values: { email: "ann@x.nl" }, created_at: t0, contact_key: "ann@x.nl", tags: ["t"] })
          const b = yield* fx.addSubmission({ form_id: formId, idempotency_key: "c2", status: "submitted", values: { email: "ann@x.nl" }, created_at: t0 + 1, contact_key: "ann@x.nl" })
          const c = yield* fx.addSubmission({ form_id: formId, idempotency_key: "c3", status: "submitted", values: { email: "bob@x.nl" }, created_at: t0 + 2, contact_key: "bob@x.nl" })
          const [ann] = (yield* records.contacts(actor.organisation_id, "ann@x.nl", first())).items
          expect(ann).toMatchObject({ key: "ann@x.nl", tags: ["t"], submission_ids: [a, b] })
          expect(typeof ann?.created_at).toBe("number")
          expect((yield* records.contacts(actor.organisation_id, undefined, first())).items.map((x) => x.key).sort()).toEqual(["ann@x.nl", "bob@x.nl"])
          expect((yield* records.contacts(other.organisation_id, "ann@x.nl", first())).items).toEqual([])
          expect(yield* failureTag(records.eraseContact(other, ann!.id, t0))).toBe("ContactNotFound")
          expect(yield* failureTag(records.eraseContact(actor, "not-a-uuid", t0))).toBe("ContactNotFound")
          yield* records.eraseContact(actor, ann!.id, t0 + 5)
          expect(yield* fx.exists(a)).toBe(false)
          expect(yield* fx.exists(b)).toBe(false)
          expect(yield* fx.exists(c)).toBe(true)
          expect((yield* records.contacts(actor.organisation_id, "ann@x.nl", first())).items).toEqual([])
          const audit = yield* fx.audit(actor.organisation_id)
          expect(audit.map((e) => e.action).sort()).toEqual(["contact.erased", "submission.erased", "submission.erased"])
          expect(audit.find((e) => e.action === "contact.erased")?.resource_id).toBe(ann!.id)
        }))

      it.effect("outbox: listed by state per organisation without payloads; only a dead event is retried", () =>
        Effect.gen(function*() {
          const outbox = yield* OutboxAdmin
          const fx = yield* SubmissionsOutFixture
          const actor = yield* fx.newActor
          const other = yield* fx.newActor
          const dead = yield* fx.addEvent({ organisation_id: actor.organisation_id, state: "dead", created_at: t0 })
          const pending = yield* fx.addEvent({ organisation_id: actor.organisation_id, state: "pending", created_at: t0 + 1 })
          const delivered = yield* fx.addEvent({ organisation_id: actor.organisation_id, state: "delivered", created_at: t0 + 2 })
          const foreign = yield* fx.addEvent({ organisation_id: other.organisation_id, state: "dead", created_at: t0 })
          const ids = (s: "dead" | "pending" | "delivered") =>
            Effect.map(outbox.list(actor.organisation_id, s, first()), (p) => p.items.map((e) => e.id))
          expect(yield* ids("dead")).toEqual([dead])
          expect(yield* ids("pending")).toEqual([pending])
          expect(yield* ids("delivered")).toEqual([delivered])
          const [entry] = (yield* outbox.list(actor.organisation_id, "dead", first())).items
          expect(Object.keys(entry!).sort()).toEqual(["attempts", "available_at", "created_at", "dead_at", "id", "last_error", "type"])
          expect((yield* outbox.list(undefined, "dead", { limit: 200, after: undefined })).items.map((e) => e.id)).toEqual(expect.arrayContaining([dead, foreign]))
          expect(yield* failureTag(outbox.retry(actor, foreign, t0))).toBe("OutboxEventNotFound")
          expect(yield* failureTag(outbox.retry(actor, pending, t0))).toBe("EventNotDead")
          expect(yield* failureTag(outbox.retry(actor, "not-a-uuid", t0))).toBe("OutboxEventNotFound")
          const retried = yield* outbox.retry(actor, dead, t0 + 100)
          expect(retried).toMatchObject({ id: dead, dead_at: null, available_at: t0 + 100 })
          expect(yield* ids("pending")).toEqual([pending, dead])
          expect(yield* failureTag(outbox.retry(actor, dead, t0))).toBe("EventNotDead")
          expect(yield* fx.audit(actor.organisation_id)).toEqual([{ action: "outbox_event.retried", resource_id: dead }])
          expect((yield* outbox.retry(undefined, foreign, t0)).id).toBe(foreign)
        }))

      it.effect("retention: old drafts of public forms deleted, delivered payloads past the window emptied", () =>
        Effect.gen(function*() {
          const retention = yield* Retention
          const { actor, formId, fx } = yield* form
          const now = t0 + 400 * day
          const old = yield* fx.addSubmission({ form_id: formId, idempotency_key: "old", status: "draft", values: { a: 1 }, created_at: t0, updated_at: now - 181 * day })
          const fresh = yield* fx.addSubmission({ form_id: formId, idempotency_key: "fresh", status: "draft", values: {}, created_at: t0, updated_at: now - 179 * day })
          const done = yield* fx.addSubmission({ form_id: formId, idempotency_key: "done", status: "submitted", values: {}, created_at: t0, updated_at: now - 300 * day })
          const portal = yield* fx.addSubmission({ form_id: formId, idempotency_key: "portal", status: "draft", values: {}, created_at: t0, updated_at: now - 300 * day, portal: true })
          const stale = yield* fx.addEvent({ organisation_id: actor.organisation_id, state: "delivered", created_at: now - 40 * day, at: now - 31 * day, payload: { values: { a: "secret" } } })
          const recent = yield* fx.addEvent({ organisation_id: actor.organisation_id, state: "delivered", created_at: now - 40 * day, at: now - 29 * day, payload: { values: { a: "keep" } } })
          const waiting = yield* fx.addEvent({ organisation_id: actor.organisation_id, state: "dead", created_at: now - 40 * day, payload: { values: { a: "keep" } } })
          const result = yield* retention.sweep({ draftsUpdatedBefore: now - 180 * day, deliveredBefore: now - 30 * day })
          expect(result.ran).toBe(true)
          expect(result.drafts_deleted).toBeGreaterThanOrEqual(1)
          expect(yield* fx.exists(old)).toBe(false)
          expect(yield* fx.exists(fresh)).toBe(true)
          expect(yield* fx.exists(done)).toBe(true)
          expect(yield* fx.exists(portal)).toBe(true)
          expect({ ...(yield* fx.eventPayload(stale)) }).toEqual({})
          expect(yield* fx.eventPayload(recent)).toEqual({ values: { a: "keep" } })
          expect(yield* fx.eventPayload(waiting)).toEqual({ values: { a: "keep" } })
        }))
    })
  })
}
