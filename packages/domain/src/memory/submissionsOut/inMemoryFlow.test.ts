/**
 * The in-memory embedding end to end: drafts created, saved and submitted through PublicForms, the built-in
 * handlers run (tags, contact), then listed, exported and erased through SubmissionsOut, all over one store,
 * as the SQL adapters do over one database.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import { BuiltinHandlers } from "../../events/BuiltinHandlers.js"
import { dispatchBatch } from "../../events/Dispatcher.js"
import { EventHandlers } from "../../events/EventHandlers.js"
import { FormsConfig } from "../../FormsConfig.js"
import { clientAt } from "../../limits/LimitPolicy.js"
import { PublicFormsLive } from "../../publicForms/makePublicForms.js"
import { PublicForms } from "../../publicForms/PublicForms.js"
import { SubmissionsOutLive } from "../../submissionsOut/makeSubmissionsOut.js"
import { SubmissionsOut } from "../../submissionsOut/SubmissionsOut.js"
import { conformanceSeed, seedIds, seedNow, seedTokens, shiftSlots } from "../conformanceSeed.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { InMemoryPortal } from "../portal/InMemoryPortal.js"
import type { PortalFixture } from "../portal/portalFixture.js"
import { seedField } from "../Seed.js"
import { InMemorySubmissionsOut } from "./InMemorySubmissionsOut.js"

// The shifts form with a unique badge and a role whose options carry tags (tag sync) besides the email (identity).
const seed: PortalFixture = {
  ...conformanceSeed,
  form_schemas: conformanceSeed.form_schemas.map((form) =>
    form.id !== seedIds.shiftsForm ? form : {
      ...form,
      tags: ["crew"],
      fields: [
        ...form.fields,
        seedField({ id: "fsh-badge", slug: "badge", is_unique: true, position: 3 }),
        seedField({
          id: "fsh-role", slug: "role", type: "select", position: 4,
          options: [{ value: "bar", tags: ["bar"] }, { value: "gate", tags: ["gate"] }]
        })
      ]
    }
  ),
  master_artists: [],
  engagements: []
}

const layer = () =>
  Layer.mergeAll(
    PublicFormsLive.layer,
    SubmissionsOutLive.layer.pipe(Layer.provide(InMemorySubmissionsOut.layer)),
    BuiltinHandlers.layer.pipe(Layer.provideMerge(EventHandlers.layer([])))
  ).pipe(Layer.provideMerge(Layer.mergeAll(InMemoryPortal.layer(seed), FormsConfig.layer())))

const visitor = clientAt("192.0.2.44")
const actor = { organisation_id: seedIds.organisation, api_key_id: null }
const all = { status: undefined, since: undefined } as const
const first = { limit: 50, after: undefined } as const

const submitShift = (key: string, values: Record<string, unknown>, shift: string) =>
  Effect.gen(function*() {
    const forms = yield* PublicForms
    const created = yield* forms.createDraft(seedTokens.shifts, { idempotency_key: key }, visitor)
    const id = created.value.submission.id
    yield* forms.save(seedTokens.shifts, id, values, visitor)
    yield* forms.submit(seedTokens.shifts, id, { shifts: [shift] }, visitor)
    return id
  })

describe("in memory: PublicForms then SubmissionsOut over one store", () => {
  it.effect("submitted submissions are listed and exported; erasure frees the key, the value and the place", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse(seedNow))
      const out = yield* SubmissionsOut
      const store = yield* InMemoryStore
      const ann = yield* submitShift("ann-1", { email: "Ann@X.nl", badge: "B-1", role: "bar" }, shiftSlots.a)
      const again = yield* submitShift("ann-2", { email: "ann@x.nl", badge: "B-2", role: "gate" }, shiftSlots.b)
      // The handlers write the tags and link both to the contact of ann@x.nl.
      const batch = yield* dispatchBatch()
      expect(batch.delivered).toBe(2)

      const listed = yield* out.listSubmissions(actor, seedIds.shiftsForm, all, first)
      expect(listed.items.map((s) => s.id)).toEqual([ann, again])
      expect(listed.items[0]).toMatchObject({ status: "submitted", tags: ["bar", "crew"], values: { badge: "B-1" } })
      const contactId = listed.items[0]?.contact_id
      expect(contactId).not.toBeNull()
      expect(listed.items[1]?.contact_id).toBe(contactId)
      const exported = yield* out.exportSubmissions(actor, seedIds.shiftsForm, all)
      expect(exported.columns.slugs).toEqual(["email", "shifts", "badge", "role"])
      expect((yield* Stream.runCollect(exported.rows)).map((s) => s.id)).toEqual([ann, again])
      const [contact] = (yield* out.contacts(actor, "ann@x.nl", first)).items
      expect(contact).toMatchObject({ id: contactId, tags: ["bar", "crew", "gate"], submission_ids: [ann, again] })

      yield* out.eraseSubmission(actor, ann)
      expect(Option.isNone(yield* Effect.option(out.getSubmission(actor, ann)))).toBe(true)
      // The contact keeps the other submission, its tags recomputed.
      expect((yield* out.contacts(actor, "ann@x.nl", first)).items[0]).toMatchObject({ tags: ["crew", "gate"], submission_ids: [again] })
      // The place on slot a is free, the outbox payload keeps only ids, the erasure is recorded.
      expect([...(store.data.places.get(shiftSlots.a)?.keys() ?? [])]).toEqual([])
      const rows = yield* store.outbox
      const submitted = rows.find((r) => r.type === "submission.submitted" && r.payload["submission_id"] === ann)
      expect({ ...submitted?.payload }).toEqual({
        submission_id: ann, schema_id: seedIds.shiftsForm, organisation_id: seedIds.organisation, event_id: seedIds.shifts, erased: true
      })
      expect(JSON.stringify(rows)).not.toContain("B-1")
      expect(rows.filter((r) => r.type === "submission.erased").map((r) => r.payload["submission_id"])).toEqual([ann])
      expect(store.data.audit.map((a) => [a.row.action, a.row.resource_id])).toEqual([["submission.erased", ann]])

      // The idempotency key and the unique badge are free: a new draft of key ann-1 takes B-1 again.
      const reused = yield* submitShift("ann-1", { email: "ann@x.nl", badge: "B-1", role: "bar" }, shiftSlots.a)
      expect(reused).not.toBe(ann)
      expect([...(store.data.places.get(shiftSlots.a)?.keys() ?? [])]).toEqual([reused])

      // Erasing the last submission of a contact deletes the contact.
      yield* dispatchBatch()
      yield* out.eraseSubmission(actor, again)
      yield* out.eraseSubmission(actor, reused)
      expect((yield* out.contacts(actor, "ann@x.nl", first)).items).toEqual([])
      expect((yield* out.listSubmissions(actor, seedIds.shiftsForm, all, first)).items).toEqual([])
    }).pipe(Effect.provide(layer())))
})
