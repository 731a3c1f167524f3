/**
 * Messages on SQL, shared by the PGlite and PostgreSQL test files: recorded by the submit in its own statement or
 * transaction (never when the submit writes nothing), claimed by one sender at a time with a lease, settled once.
 */
import { expect } from "@effect/vitest"
import type { Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type MessageRows, type NewMessage, Submissions } from "@forms/domain"
import { ids } from "../fixtures.js"

export type MessageRowsIt = Vitest.MethodsNonLive<Submissions | MessageRows | SqlClient.SqlClient>

let n = 0
const key = () => `messages-key-${Date.now()}-${++n}`.padEnd(20, "0")

const confirmation = (to: string, status: "held" | "pending" = "pending"): NewMessage => ({
  kind: "confirmation",
  to,
  subject: "Thanks",
  body: "Line 1\nLine 2",
  status
})

/** A submitted submission of the fixture's volunteer form, its submit carrying `messages`. */
export const submitWith = (messages: ReadonlyArray<NewMessage>, options: { readonly places?: boolean; readonly at?: number } = {}) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const { submission } = yield* submissions.createOrGet({
      schema_id: ids.volunteer, idempotency_key: key(), event_id: ids.festival, subject_id: null, values: {}, language: "en"
    })
    yield* submissions.submit({
      schema_id: ids.volunteer,
      id: submission.id,
      expected_version: submission.version,
      values: {},
      claims: [],
      submitted_at: options.at ?? Date.now(),
      events: [],
      messages,
      ...(options.places === true ? { places: { slot_ids: ["ts-test-morning"], decide: () => undefined } } : {})
    })
    return submission.id
  })

const rowsOf = (submissionId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ readonly kind: string; readonly to_address: string; readonly status: string; readonly organisation_id: string; readonly body: string }>`
      SELECT kind, to_address, status, organisation_id, body FROM messages WHERE submission_id = ${submissionId}::uuid ORDER BY seq`
  })

export const messageRowsScenarios = (it: MessageRowsIt, rowsPort: typeof MessageRows): void => {
  it.effect("a submit records its messages in its one statement, and in its transaction when it takes places", () =>
    Effect.gen(function*() {
      const one = yield* submitWith([confirmation("a@example.org"), { ...confirmation("crew@example.org", "held"), kind: "notification" }])
      expect(yield* rowsOf(one)).toEqual([
        { kind: "confirmation", to_address: "a@example.org", status: "pending", organisation_id: ids.organisation, body: "Line 1\nLine 2" },
        { kind: "notification", to_address: "crew@example.org", status: "held", organisation_id: ids.organisation, body: "Line 1\nLine 2" }
      ])
      const other = yield* submitWith([confirmation("b@example.org")], { places: true })
      expect((yield* rowsOf(other)).map((r) => r.to_address)).toEqual(["b@example.org"])
    }))

  it.effect("a submit that writes nothing records no message", () =>
    Effect.gen(function*() {
      const submissions = yield* Submissions
      const { submission } = yield* submissions.createOrGet({
        schema_id: ids.volunteer, idempotency_key: key(), event_id: ids.festival, subject_id: null, values: {}, language: "en"
      })
      const stale = yield* Effect.flip(submissions.submit({
        schema_id: ids.volunteer, id: submission.id, expected_version: submission.version + 7, values: {}, claims: [],
        submitted_at: Date.now(), events: [], messages: [confirmation("c@example.org")]
      }))
      expect(stale._tag).toBe("VersionConflict")
      expect(yield* rowsOf(submission.id)).toEqual([])
    }))

  it.effect("claims are disjoint and leased; a settle of an attempt claimed again since is dropped", () =>
    Effect.gen(function*() {
      const rows = yield* rowsPort
      const sql = yield* SqlClient.SqlClient
      // Only this test's messages are due at its far-future clock: earlier ones are settled first.
      const base = Date.now() + 1000 * 86_400_000
      yield* sql`UPDATE messages SET status = 'sent' WHERE status = 'pending'`
      const id = yield* submitWith([confirmation("d@example.org"), confirmation("e@example.org"), confirmation("held@example.org", "held")], { at: base })
      const [first, second] = yield* Effect.all([rows.claimDue(base, 60_000, 1), rows.claimDue(base, 60_000, 5)], { concurrency: 2 })
      const claimed = [...(first ?? []), ...(second ?? [])]
      expect(claimed.map((m) => m.to).sort()).toEqual(["d@example.org", "e@example.org"])
      expect(claimed.every((m) => m.attempts === 1 && m.submission_id === id && m.status === "pending")).toBe(true)
      expect(yield* rows.claimDue(base + 59_999, 60_000, 5)).toEqual([])
      const again = yield* rows.claimDue(base + 60_000, 60_000, 5)
      expect(again.map((m) => m.attempts)).toEqual([2, 2])
      const target = again[0] as (typeof again)[number]
      yield* rows.settle(target.id, 1, { _tag: "Sent" }, base + 60_001)
      expect((yield* rows.find(target.id))?.status).toBe("pending")
      yield* rows.settle(target.id, 2, { _tag: "Retry", at: base + 200_000, reason: "451 later" }, base + 60_001)
      expect(yield* rows.find(target.id)).toMatchObject({ status: "pending", last_error: "451 later", attempts: 2 })
      expect((yield* rows.claimDue(base + 199_999, 60_000, 5)).map((m) => m.id)).not.toContain(target.id)
      const third = yield* rows.claimDue(base + 200_000, 60_000, 5)
      expect(third.map((m) => m.id)).toContain(target.id)
      yield* rows.settle(target.id, 3, { _tag: "Sent" }, base + 200_001)
      expect(yield* rows.find(target.id)).toMatchObject({ status: "sent", sent_at: base + 200_001, last_error: null })
      yield* rows.settle(target.id, 3, { _tag: "Failed", reason: "late" }, base + 200_002)
      expect((yield* rows.find(target.id))?.status).toBe("sent")
      expect(yield* rows.find("not-a-uuid")).toBeUndefined()
    }))
}
