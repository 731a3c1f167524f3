/**
 * Identity match racing an erasure of its submission, shared by the PGlite and PostgreSQL test files: whichever
 * commits first, no contact made for the erased submission alone is left (its key is the visitor's email).
 */
import { expect } from "@effect/vitest"
import type { Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Enrichment, SubmissionRecords, Submissions } from "@forms/domain"
import { portalIds } from "@forms/domain/testing"
import { fresh, values } from "./events.js"

export type ContactErasureIt = Vitest.MethodsNonLive<Submissions | Enrichment | SubmissionRecords | SqlClient.SqlClient>

const rounds = 30
const actor = { organisation_id: portalIds.organisation, api_key_id: null }

/** A draft of the fixture's volunteer form (identity match links any submission it is given). */
const newSubmission = Effect.gen(function*() {
  const { submission } = yield* (yield* Submissions).createOrGet({
    schema_id: portalIds.volunteer, idempotency_key: fresh("erasure-key-0000"), event_id: portalIds.festival,
    subject_id: null, values: values({}), language: "en"
  })
  return submission.id
})

const contactsWithKey = (key: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql`SELECT id FROM contacts WHERE key = ${key}`
  })

export const contactErasureScenarios = (it: ContactErasureIt): void => {
  const race = (path: "single" | "batch") =>
    Effect.gen(function*() {
      const enrichment = yield* Enrichment
      const records = yield* SubmissionRecords
      const left: Array<string> = []
      for (let round = 0; round < rounds; round++) {
        const id = yield* newSubmission
        const key = `${fresh("erased")}@example.org`
        const link = { organisation_id: portalIds.organisation, key, submission_id: id }
        // Every third round, a link of an earlier delivery came first: the erasure then removes that contact too.
        if (round % 3 === 0) yield* enrichment.linkContact(link)
        const match = path === "single" ? Effect.asVoid(enrichment.linkContact(link)) : enrichment.linkContacts([link])
        const erase = records.erase(actor, id, Date.now())
        yield* Effect.all(round % 2 === 0 ? [match, erase] : [erase, match], { concurrency: "unbounded", discard: true })
        if ((yield* contactsWithKey(key)).length > 0) left.push(`round ${round}`)
      }
      expect(left).toEqual([])
    })

  it.effect(`identity match (one event) racing the erasure of its submission leaves no contact (${rounds} rounds)`, () => race("single"))
  it.effect(`identity match (a batch) racing the erasure of its submission leaves no contact (${rounds} rounds)`, () => race("batch"))

  it.effect("identity match of a submission erased before it ran leaves no contact; a live one's contact stays", () =>
    Effect.gen(function*() {
      const enrichment = yield* Enrichment
      const [erased, live] = [yield* newSubmission, yield* newSubmission]
      yield* (yield* SubmissionRecords).erase(actor, erased, Date.now())
      const [alone, shared] = [`${fresh("alone")}@example.org`, `${fresh("shared")}@example.org`]
      yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key: alone, submission_id: erased })
      yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key: shared, submission_id: live })
      yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key: shared, submission_id: erased })
      expect([(yield* contactsWithKey(alone)).length, (yield* contactsWithKey(shared)).length]).toEqual([0, 1])
    }))
}
