import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryMailer, makeMailerState } from "../memory/messages/InMemoryMailer.js"
import { InMemoryMessageRows } from "../memory/messages/InMemoryMessageRows.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { InMemorySubmissionsOut } from "../memory/submissionsOut/InMemorySubmissionsOut.js"
import { PublicForms } from "../publicForms/PublicForms.js"
import { SubmissionRecords } from "../submissionsOut/SubmissionRecords.js"
import { body, inWorld, ip, keyOf, validVolunteer } from "../testing/publicForms/publicFormsTestKit.js"
import type { MailOutcome } from "./Mailer.js"
import { MessageRows } from "./MessageRows.js"
import { messagesConfigLayer } from "./MessagesConfig.js"
import { sendDueMessages } from "./sendDue.js"

const confirmation = { to_field: "email", subject: "Welcome {{name}}", body: "{{answers}}" }

/** A submit of the volunteer form asking for a confirmation; answers the store's messages. */
const submitOne = Effect.gen(function*() {
  const store = yield* InMemoryStore
  const forms = yield* PublicForms
  yield* store.updateSchema(seedIds.volunteer, (s) => ({ ...s, messages: { confirmation } }))
  const draft = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer()) }, ip)).value.submission
  yield* forms.submit(seedTokens.volunteer, draft.id, body(), ip)
  return store.data.messages
})

const sender = (script: Array<MailOutcome>) => {
  const mail = makeMailerState()
  mail.script.push(...script)
  const layer = Layer.mergeAll(InMemoryMessageRows.layer, InMemoryMailer.layer(mail))
  return { mail, sweep: sendDueMessages().pipe(Effect.provide(layer)) }
}

const sending = messagesConfigLayer({ sending: true, from: "Festival <noreply@example.org>", retrySchedule: [60, 300] })

describe("messages of a submit and their sender", () => {
  it.effect("without a mail server the confirmation is recorded held, in the submit, and never sent", () =>
    inWorld(Effect.gen(function*() {
      const rows = yield* submitOne
      expect(rows.map((r) => [r.message.kind, r.message.status, r.message.to, r.message.subject]))
        .toEqual([["confirmation", "held", "ada@example.org", "Welcome Ada"]])
      const { mail, sweep } = sender([])
      expect(yield* sweep).toBe(0)
      expect(mail.attempted).toEqual([])
    })))

  it.effect("sent once; a 4xx is retried after the schedule's delay with the same Message-ID", () =>
    inWorld(Effect.gen(function*() {
      const rows = yield* submitOne
      expect(rows[0]?.message.status).toBe("pending")
      const { mail, sweep } = sender([{ _tag: "Temporary", reason: "451 try later" }])
      expect(yield* sweep).toBe(1)
      expect(rows[0]?.message).toMatchObject({ status: "pending", attempts: 1, last_error: "451 try later" })
      expect(yield* sweep).toBe(0)
      yield* TestClock.adjust(59_999)
      expect(yield* sweep).toBe(0)
      yield* TestClock.adjust(1)
      expect(yield* sweep).toBe(1)
      expect(rows[0]?.message).toMatchObject({ status: "sent", attempts: 2 })
      expect(mail.attempted.map((m) => m.messageId)).toEqual([
        `<${rows[0]?.message.id}@example.org>`,
        `<${rows[0]?.message.id}@example.org>`
      ])
      expect(mail.attempted[0]).toMatchObject({ to: "ada@example.org", from: "Festival <noreply@example.org>", subject: "Welcome Ada" })
      expect(yield* sweep).toBe(0)
    })).pipe(Effect.provide(sending)))

  it.effect("a 5xx fails at once; temporary failures fail once the schedule is used up", () =>
    inWorld(Effect.gen(function*() {
      const rows = yield* submitOne
      const { sweep } = sender([{ _tag: "Permanent", reason: "550 no such user" }])
      yield* sweep
      expect(rows[0]?.message).toMatchObject({ status: "failed", attempts: 1, last_error: "550 no such user" })
    })).pipe(Effect.provide(sending)))

  it.effect("after the last delay a temporary failure fails the message", () =>
    inWorld(Effect.gen(function*() {
      const rows = yield* submitOne
      const temporary: MailOutcome = { _tag: "Temporary", reason: "timeout" }
      const { mail, sweep } = sender([temporary, temporary, temporary])
      yield* sweep
      yield* TestClock.adjust(60_000)
      yield* sweep
      yield* TestClock.adjust(300_000)
      yield* sweep
      expect(rows[0]?.message).toMatchObject({ status: "failed", attempts: 3, last_error: "timeout" })
      expect(mail.attempted.length).toBe(3)
    })).pipe(Effect.provide(sending)))

  it.effect("a claim leases the message: a lapsed lease makes it due again, a late settle of the old attempt is dropped", () =>
    inWorld(Effect.gen(function*() {
      const rows = yield* submitOne
      const store = yield* InMemoryStore
      const claimOnce = Effect.gen(function*() {
        const port = yield* MessageRows
        return yield* port.claimDue(yield* Clock.currentTimeMillis, 120_000, 10)
      }).pipe(Effect.provide(InMemoryMessageRows.layer))
      expect((yield* claimOnce).length).toBe(1)
      expect((yield* claimOnce).length).toBe(0)
      yield* TestClock.adjust(120_000)
      const again = yield* claimOnce
      expect(again.map((m) => m.attempts)).toEqual([2])
      yield* Effect.gen(function*() {
        const port = yield* MessageRows
        yield* port.settle(again[0]?.id ?? "", 1, { _tag: "Sent" }, 0)
      }).pipe(Effect.provide(InMemoryMessageRows.layer))
      expect(rows[0]?.message.status).toBe("pending")
      expect(store.data.messages.length).toBe(1)
    })).pipe(Effect.provide(sending)))

  it.effect("erasure deletes the submission's messages", () =>
    inWorld(Effect.gen(function*() {
      const rows = yield* submitOne
      const submissionId = rows[0]?.message.submission_id ?? ""
      expect(rows.length).toBe(1)
      yield* Effect.gen(function*() {
        yield* (yield* SubmissionRecords).erase({ organisation_id: "org-conf", api_key_id: null }, submissionId, 0)
      }).pipe(Effect.provide(InMemorySubmissionsOut.layer))
      expect((yield* InMemoryStore).data.messages).toEqual([])
    })))
})
