/** Conformance of Enrichment and SchemaCatalog: submission tags as a set, contacts found or created by key. */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Enrichment } from "../../events/Enrichment.js"
import { SchemaCatalog } from "../../events/SchemaCatalog.js"
import { type PortalFixture, portalIds } from "../../memory/portal/portalFixture.js"
import { formSchemaFromSeed } from "../../memory/Seed.js"
import { Submissions } from "../../publicForms/Submissions.js"
import type { PortalConformanceIt } from "../portal/engagementsConformance.js"
import { byId, draftOf, makeFresh } from "../support.js"

export const enrichmentConformance = (it: PortalConformanceIt, fixture: PortalFixture): void => {
  const fresh = makeFresh()
  /** A new draft of the fixture's volunteer form (tags and contacts hang off real submissions). */
  const submission = Effect.gen(function*() {
    const created = yield* (yield* Submissions).createOrGet(draftOf(portalIds.volunteer, fresh("key-enrichment")))
    return created.submission.id
  })
  const contactTags = (submissionId: string) =>
    Effect.map(Enrichment.use((e) => e.contactOfSubmission(submissionId)), Option.map((c) => c.tags))

  describe("SchemaCatalog", () => {
    it.effect("finds a schema by id whatever its status or type; an unknown id is None", () =>
      Effect.gen(function*() {
        const catalog = yield* SchemaCatalog
        for (const id of [portalIds.advance, portalIds.volunteer]) {
          const seeded = fixture.form_schemas.find((s) => s.id === id)
          if (seeded === undefined) return expect.fail(`the fixture has no schema ${id}`)
          const found = yield* catalog.findById(id)
          const comparable = Option.map(found, (s) => ({ ...s, revision: 0, sections: byId(s.sections), fields: byId(s.fields) }))
          const expected = formSchemaFromSeed(fixture, seeded)
          expect(comparable).toEqual(Option.some({ ...expected, revision: 0, sections: byId(expected.sections), fields: byId(expected.fields) }))
        }
        expect(Option.isNone(yield* catalog.findById("fs-unknown"))).toBe(true)
      }))
  })

  describe("Enrichment", () => {
    it.effect("submission tags are set, not appended: sorted, without duplicates; none set is []", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const id = yield* submission
        expect(yield* enrichment.submissionTags(id)).toEqual([])
        yield* enrichment.setSubmissionTags(id, ["volunteer", "Bar", "bar", "volunteer"])
        expect(yield* enrichment.submissionTags(id)).toEqual(["Bar", "bar", "volunteer"])
        yield* enrichment.setSubmissionTags(id, ["crew"])
        expect(yield* enrichment.submissionTags(id)).toEqual(["crew"])
      }))

    it.effect("a key finds or creates the organisation's contact; it carries the union of its submissions' tags", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const key = `${fresh("ann")}@example.nl`
        const [first, second] = [yield* submission, yield* submission]
        yield* enrichment.setSubmissionTags(first, ["volunteer", "bar"])
        const created = yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key, submission_id: first })
        expect([created.organisation_id, created.key, created.tags]).toEqual([portalIds.organisation, key, ["bar", "volunteer"]])
        // Linked before its tags are set: the contact follows when they are.
        const linked = yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key, submission_id: second })
        expect(linked.id).toBe(created.id)
        yield* enrichment.setSubmissionTags(second, ["stage"])
        expect(yield* contactTags(first)).toEqual(Option.some(["bar", "stage", "volunteer"]))
        // Redelivery: the same calls again change nothing.
        const again = yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key, submission_id: second })
        yield* enrichment.setSubmissionTags(second, ["stage"])
        expect([again.id, again.tags]).toEqual([created.id, ["bar", "stage", "volunteer"]])
        const mine = (yield* enrichment.contacts(portalIds.organisation)).filter((c) => c.key === key)
        expect(mine.map((c) => [c.id, c.tags])).toEqual([[created.id, ["bar", "stage", "volunteer"]]])
        // Another organisation's contact with the same key is another contact.
        const elsewhere = yield* enrichment.linkContact({ organisation_id: portalIds.bareOrganisation, key, submission_id: yield* submission })
        expect(elsewhere.id).not.toBe(created.id)
      }))

    it.effect("a submission linked to another key moves; both contacts' tags are recomputed", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const [keyA, keyB] = [`${fresh("a")}@example.nl`, fresh("31612345").replace(/\D/g, "")]
        const [one, two] = [yield* submission, yield* submission]
        yield* enrichment.setSubmissionTags(one, ["x"])
        yield* enrichment.setSubmissionTags(two, ["y"])
        yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key: keyA, submission_id: one })
        yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key: keyA, submission_id: two })
        const moved = yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key: keyB, submission_id: two })
        expect(moved.tags).toEqual(["y"])
        expect(yield* contactTags(one)).toEqual(Option.some(["x"]))
        expect(Option.map(yield* enrichment.contactOfSubmission(two), (c) => c.key)).toEqual(Option.some(keyB))
      }))

    it.effect("a contact's tags are in code unit order, as a submission's are (U+1F600 before U+FF21)", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const id = yield* submission
        const tags = ["\uFF21", "\u{1F600}", "a"]
        yield* enrichment.setSubmissionTags(id, tags)
        const linked = yield* enrichment.linkContact({ organisation_id: portalIds.organisation, key: `${fresh("units")}@example.nl`, submission_id: id })
        const codeUnitOrder = ["a", "\u{1F600}", "\uFF21"]
        expect([yield* enrichment.submissionTags(id), linked.tags, Option.map(yield* enrichment.contactOfSubmission(id), (c) => c.tags)])
          .toEqual([codeUnitOrder, codeUnitOrder, Option.some(codeUnitOrder)])
      }))

    it.effect("parallel tag changes and links of 8 submissions to one key: the contact ends with the union (3 rounds)", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        for (let round = 0; round < 3; round++) {
          const key = `${fresh("union")}@example.nl`
          const ids = yield* Effect.forEach(Array.from({ length: 8 }), () => submission)
          // Each submission is linked and tagged by two racing calls; every recompute must see the others' commits.
          const steps = ids.flatMap((id, i) => [
            enrichment.linkContact({ organisation_id: portalIds.organisation, key, submission_id: id }),
            enrichment.setSubmissionTags(id, [`tag-${i}`, "shared"])
          ])
          yield* Effect.all(steps, { concurrency: "unbounded", discard: true })
          const expected = ["shared", ...ids.map((_, i) => `tag-${i}`)].sort()
          const mine = (yield* enrichment.contacts(portalIds.organisation)).filter((c) => c.key === key)
          expect(mine.map((c) => c.tags)).toEqual([expected])
        }
      }))

    it.effect("10 parallel links with one new key: one contact", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const key = `${fresh("race")}@example.nl`
        const ids = yield* Effect.forEach(Array.from({ length: 10 }), () => submission)
        const contacts = yield* Effect.forEach(ids, (id) =>
          enrichment.linkContact({ organisation_id: portalIds.organisation, key, submission_id: id }), { concurrency: "unbounded" })
        expect(new Set(contacts.map((c) => c.id)).size).toBe(1)
        expect(Option.isNone(yield* enrichment.contactOfSubmission("00000000-0000-4000-8000-0000deadbeef"))).toBe(true)
      }))

    it.effect("batches: tags set per submission (a submission named twice gets its last item), links per key, contacts recomputed", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const [keyA, keyB] = [`${fresh("batch-a")}@example.nl`, `${fresh("batch-b")}@example.nl`]
        const [one, two, three] = [yield* submission, yield* submission, yield* submission]
        yield* enrichment.setSubmissionTagsMany([
          { submission_id: one, tags: ["x", "shared", "x"] },
          { submission_id: two, tags: ["old"] },
          { submission_id: three, tags: ["z"] },
          { submission_id: two, tags: ["y", "shared"] }
        ])
        expect([yield* enrichment.submissionTags(one), yield* enrichment.submissionTags(two)]).toEqual([["shared", "x"], ["shared", "y"]])
        const org = portalIds.organisation
        const links = [
          { organisation_id: org, key: keyA, submission_id: one },
          { organisation_id: org, key: keyA, submission_id: two },
          { organisation_id: org, key: keyB, submission_id: three }
        ]
        yield* enrichment.linkContacts(links)
        const byKey = () =>
          Effect.map(enrichment.contacts(org), (all) => all.filter((c) => c.key === keyA || c.key === keyB).map((c) => [c.key, c.tags]))
        expect(yield* byKey()).toEqual([[keyA, ["shared", "x", "y"]], [keyB, ["z"]]])
        // Redelivery: the same batches again change nothing.
        yield* enrichment.linkContacts(links)
        yield* enrichment.setSubmissionTagsMany([{ submission_id: two, tags: ["y", "shared"] }])
        expect(yield* byKey()).toEqual([[keyA, ["shared", "x", "y"]], [keyB, ["z"]]])
        // A submission moved by a batch (its last item wins); tags set after the link reach the contact.
        yield* enrichment.linkContacts([{ organisation_id: org, key: keyA, submission_id: two }, { organisation_id: org, key: keyB, submission_id: two }])
        yield* enrichment.setSubmissionTagsMany([{ submission_id: three, tags: ["z", "w"] }])
        expect(yield* byKey()).toEqual([[keyA, ["shared", "x"]], [keyB, ["shared", "w", "y", "z"]]])
        yield* enrichment.linkContacts([])
        yield* enrichment.setSubmissionTagsMany([])
      }))

    it.effect("parallel batches over the same submissions in different orders: no deadlock, the contact ends with the union", () =>
      Effect.gen(function*() {
        const enrichment = yield* Enrichment
        const key = `${fresh("batch-union")}@example.nl`
        const ids = yield* Effect.forEach(Array.from({ length: 8 }), () => submission)
        const links = ids.map((id) => ({ organisation_id: portalIds.organisation, key, submission_id: id }))
        const tags = ids.map((id, i) => ({ submission_id: id, tags: [`tag-${i}`, "shared"] }))
        yield* Effect.all([
          enrichment.linkContacts(links),
          enrichment.setSubmissionTagsMany([...tags].reverse()),
          enrichment.linkContacts([...links].reverse()),
          enrichment.setSubmissionTagsMany(tags)
        ], { concurrency: "unbounded", discard: true })
        const expected = ["shared", ...ids.map((_, i) => `tag-${i}`)].sort()
        const mine = (yield* enrichment.contacts(portalIds.organisation)).filter((c) => c.key === key)
        expect(mine.map((c) => c.tags)).toEqual([expected])
      }))
  })
}
