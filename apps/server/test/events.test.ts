import { assert, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Enrichment, ValueTargets } from "@forms/domain"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, eventually, liveOptions, testServer } from "./harness.js"

const contactForm = "/public/forms/test-contact-token-0001"
const portal = "/p/artist/test-portal-token-0001"

/** Creates and submits a draft of the contact form; the submission's id. */
const submitContact = (key: string, values: Record<string, unknown>) =>
  Effect.gen(function*() {
    const created = yield* call(`${contactForm}/submissions`, { method: "POST", body: { idempotency_key: key } })
    const id = String(dataOf(created)["id"])
    const submitted = yield* call(`${contactForm}/submissions/${id}/submit`, { method: "POST", body: { values } })
    assert.strictEqual(submitted.status, 200, submitted.text)
    return id
  })

const contactOf = (submissionId: string) =>
  Effect.flatMap(Enrichment, (enrichment) => enrichment.contactOfSubmission(submissionId))

for (const backend of backends) {
  layer(testServer(backend, { SUBMIT_RATE_LIMIT_PER_HOUR: "1000", WRITE_RATE_LIMIT_PER_HOUR: "1000" }), liveOptions)(`events (${backend})`, (it) => {
    it.effect("after a public submit, the dispatcher gives the submission its tags and its contact", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const id = yield* submitContact("events-0001-0123456789abcdef", { email: "Ann@Example.org", interest: "music" })
        const tags = yield* eventually(enrichment.submissionTags(id), (t) => t.length > 0)
        assert.deepStrictEqual(tags, ["contact", "music-fan"])
        const contact = yield* eventually(contactOf(id), Option.isSome)
        assert.isTrue(Option.isSome(contact))
        if (Option.isNone(contact)) return
        assert.strictEqual(contact.value.key, "ann@example.org")
        assert.strictEqual(contact.value.organisation_id, "org-t")
        assert.deepStrictEqual(contact.value.tags, ["contact", "music-fan"])
      }))

    it.effect("two submissions with one email in different case link to one contact carrying both's tags", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const first = yield* submitContact("events-0002-0123456789abcdef", { email: "Bob@Example.org", interest: "music" })
        const second = yield* submitContact("events-0003-0123456789abcdef", { email: "  bob@EXAMPLE.org ", interest: "food" })
        const a = yield* eventually(contactOf(first), Option.isSome)
        const b = yield* eventually(contactOf(second), Option.isSome)
        if (Option.isNone(a) || Option.isNone(b)) return assert.fail("no contact")
        assert.strictEqual(a.value.id, b.value.id)
        const all = yield* eventually(
          enrichment.contacts("org-t"),
          (contacts) => contacts.some((c) => c.key === "bob@example.org" && c.tags.length === 3)
        )
        assert.deepStrictEqual(all.filter((c) => c.key === "bob@example.org").map((c) => c.tags), [["contact", "foodie", "music-fan"]])
        // A phone number is the key when there is no email: its digits.
        const byPhone = yield* submitContact("events-0004-0123456789abcdef", { phone: "+31 (6) 1234-5678" })
        const phoneContact = yield* eventually(contactOf(byPhone), Option.isSome)
        assert.strictEqual(Option.getOrUndefined(phoneContact)?.key, "31612345678")
      }))

    it.effect("after a section submit, the mapped values are in the artist's profile and the engagement's advance", () =>
      Effect.gen(function*() {
        const targets = yield* ValueTargets
        const travel = yield* call(`${portal}/sections/as-travel`, {
          method: "POST",
          body: { values: { arrival: "2027-08-19", travel_notes: "by train" } }
        })
        assert.strictEqual(travel.status, 200, travel.text)
        const hospitality = yield* call(`${portal}/sections/as-hosp`, {
          method: "POST",
          body: { values: { dietary: "vegan", guests: 2 } }
        })
        assert.strictEqual(hospitality.status, 200, hospitality.text)
        const applied = yield* eventually(
          targets.read("eng-1"),
          (read) => Option.isSome(read) && "guests" in read.value.advance && "arrival_date" in read.value.advance
        )
        if (Option.isNone(applied)) return assert.fail("no engagement")
        assert.deepStrictEqual({ ...applied.value.advance }, { arrival_date: "2027-08-19", guests: 2 })
        assert.deepStrictEqual({ ...applied.value.profile }, { travel_notes: "by train", dietary: "vegan" })
        // A repeat submit applies the new values; other keys stay.
        yield* call(`${portal}/sections/as-travel`, { method: "POST", body: { values: { arrival: "2027-08-20" } } })
        const updated = yield* eventually(
          targets.read("eng-1"),
          (read) => Option.isSome(read) && read.value.advance["arrival_date"] === "2027-08-20"
        )
        assert.deepStrictEqual({ ...Option.getOrThrow(updated).advance }, { arrival_date: "2027-08-20", guests: 2 })
      }))
  })
}

reportSkippedPostgres("events")
