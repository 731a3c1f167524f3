/**
 * The organiser's messages over the in-memory ports: list (filters, newest first), one with links as `[link]`, a
 * retry (a new round of the retry schedule, its audit entry, 409 and 404); the `recipient` policy of a submit.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryMailer, makeMailerState } from "../memory/messages/InMemoryMailer.js"
import { InMemoryMessageLog } from "../memory/messages/InMemoryMessageLog.js"
import { InMemoryMessageRows } from "../memory/messages/InMemoryMessageRows.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { PublicForms } from "../publicForms/PublicForms.js"
import { body, inWorld, ip, keyOf, validVolunteer } from "../testing/publicForms/publicFormsTestKit.js"
import { linkMarker } from "./messageLinks.js"
import { messagesConfigLayer } from "./MessagesConfig.js"
import { OrganiserMessages, OrganiserMessagesLive } from "./OrganiserMessages.js"
import { sendDueMessages } from "./sendDue.js"

const confirmation = { to_field: "email", subject: "Welcome {{name}}", body: "Hello {{name}}" }
const actor = { organisation_id: "org-conf", api_key_id: "key-1" }

let n = 0
const submitAs = (email: string) =>
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const forms = yield* PublicForms
    // The address is not unique here: one visitor may sign up again.
    yield* store.updateSchema(seedIds.volunteer, (s) => ({
      ...s,
      messages: { confirmation },
      fields: s.fields.map((f) => (f.slug === "email" ? { ...f, is_unique: false } : f))
    }))
    const draft = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(++n), values: body(validVolunteer(email)) }, ip)).value.submission
    yield* forms.submit(seedTokens.volunteer, draft.id, body(), ip)
    return draft.id
  })

const organiser = <A, E>(f: (messages: typeof OrganiserMessages.Service) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    return yield* f(yield* OrganiserMessages)
  }).pipe(Effect.provide(OrganiserMessagesLive.layer.pipe(Layer.provide(InMemoryMessageLog.layer))))

const page = { limit: 50, after: undefined }

describe("the organiser's messages", () => {
  it.effect("list with filters, newest first; one message with its links as [link]; another organisation sees nothing", () =>
    inWorld(Effect.gen(function*() {
      const first = yield* submitAs("ada@example.org")
      yield* TestClock.adjust(1000)
      const second = yield* submitAs("bob@example.org")
      const store = yield* InMemoryStore
      const listed = yield* organiser((m) => m.list(actor, {}, page))
      expect(listed.items.map((m) => [m.submission_id, m.to])).toEqual([[second, "bob@example.org"], [first, "ada@example.org"]])
      expect((yield* organiser((m) => m.list(actor, { submission_id: first }, page))).items.map((m) => m.to)).toEqual(["ada@example.org"])
      expect((yield* organiser((m) => m.list(actor, { status: "sent" }, page))).items).toEqual([])
      expect((yield* organiser((m) => m.list({ ...actor, organisation_id: "other" }, {}, page))).items).toEqual([])
      const row = store.data.messages[0]
      if (row !== undefined) row.message = { ...row.message, body: `Resume here: ${linkMarker}\nBye` }
      const one = yield* organiser((m) => m.get(actor, row?.message.id ?? ""))
      expect(one.body).toBe("Resume here: [link]\nBye")
      const missing = yield* Effect.flip(organiser((m) => m.get({ ...actor, organisation_id: "other" }, row?.message.id ?? "")))
      expect(missing._tag).toBe("MessageNotFound")
    })))

  it.effect("a retry of a failed message starts a new round of the schedule, with its audit entry; 409 for a sent one", () =>
    inWorld(Effect.gen(function*() {
      yield* submitAs("ada@example.org")
      const store = yield* InMemoryStore
      const row = store.data.messages[0]
      const id = row?.message.id ?? ""
      const mail = makeMailerState()
      const temporary = { _tag: "Temporary", reason: "451 later" } as const
      mail.script.push(temporary, temporary, temporary, temporary)
      const sweep = sendDueMessages().pipe(Effect.provide(Layer.mergeAll(InMemoryMessageRows.layer, InMemoryMailer.layer(mail))))
      yield* sweep
      yield* TestClock.adjust(60_000)
      yield* sweep
      expect(row?.message).toMatchObject({ status: "failed", attempts: 2 })
      const retried = yield* organiser((m) => m.retry(actor, id))
      expect(retried).toMatchObject({ status: "pending", attempts: 2, round_start: 2 })
      expect(store.data.audit.map((a) => [a.row.action, a.row.resource_type, a.row.resource_id])).toEqual([["message.retried", "message", id]])
      // The new round: a 4xx is retried after the first delay again, not failed at once.
      yield* sweep
      expect(row?.message).toMatchObject({ status: "pending", attempts: 3, last_error: "451 later" })
      yield* TestClock.adjust(60_000)
      yield* sweep
      expect(row?.message).toMatchObject({ status: "failed", attempts: 4 })
      yield* sweep
      if (row !== undefined) row.message = { ...row.message, status: "sent" }
      expect((yield* Effect.flip(organiser((m) => m.retry(actor, id))))._tag).toBe("MessageNotRetryable")
      expect((yield* Effect.flip(organiser((m) => m.retry(actor, "nope"))))._tag).toBe("MessageNotFound")
    })).pipe(Effect.provide(messagesConfigLayer({ sending: true, retrySchedule: [60] }))))

  it.effect("recipient: over the limit per lower-cased address within 24 hours, a confirmation is recorded failed, never sent", () =>
    inWorld(Effect.gen(function*() {
      for (const email of ["ada@example.org", "ADA@example.org", "ada@EXAMPLE.org"]) yield* submitAs(email)
      const store = yield* InMemoryStore
      expect(store.data.messages.map((r) => [r.message.status, r.message.last_error])).toEqual([
        ["pending", null], ["pending", null], ["failed", "recipient limit"]
      ])
      const mail = makeMailerState()
      yield* sendDueMessages().pipe(Effect.provide(Layer.mergeAll(InMemoryMessageRows.layer, InMemoryMailer.layer(mail))))
      expect(mail.attempted.length).toBe(2)
      // A day later the window has room again.
      yield* TestClock.adjust(86_400_000)
      yield* submitAs("ada@example.org")
      expect(store.data.messages.at(-1)?.message.status).toBe("pending")
    }), { config: { submitLimitPerHour: 100 } }).pipe(Effect.provide(messagesConfigLayer({ sending: true, perRecipientPerDay: 2 }))))
})
