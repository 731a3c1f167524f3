/** Conformance of Submissions and UniqueValues: idempotent create, atomic save and submit, unique claims. */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { seedIds } from "../../memory/conformanceSeed.js"
import { FormSchemas } from "../../publicForms/FormSchemas.js"
import { Submissions } from "../../publicForms/Submissions.js"
import { UniqueValues } from "../../publicForms/UniqueValues.js"
import { type ConformanceIt, draftOf, makeFresh, plain, submitOf, values } from "../support.js"

const unbounded = { concurrency: "unbounded" } as const
const unknownUuid = "00000000-0000-4000-8000-0000deadbeef"

export const submissionsConformance = (it: ConformanceIt): void => {
  const fresh = makeFresh()
  const create = (schemaId: string, initial = values({})) =>
    Effect.gen(function*() {
      const submissions = yield* Submissions
      return yield* submissions.createOrGet(draftOf(schemaId, fresh("key-conformance"), initial, seedIds.festival))
    })

  describe("Submissions.createOrGet", () => {
    it.effect("inserts a draft once; the same key returns the stored one, its values unchanged", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const key = fresh("key-create")
        const first = yield* submissions.createOrGet(draftOf(seedIds.volunteer, key, values({ email: "a@b.nl" }), seedIds.festival))
        expect(first.created).toBe(true)
        const s = first.submission
        expect([s.status, s.schema_id, s.idempotency_key, s.auto_save_count]).toEqual(["draft", seedIds.volunteer, key, 0])
        expect([s.event_id, s.subject_id, s.submitted_at]).toEqual([seedIds.festival, null, null])
        expect(plain(s.values)).toEqual({ email: "a@b.nl" })
        expect(typeof s.created_at).toBe("number")
        const again = yield* submissions.createOrGet(draftOf(seedIds.volunteer, key, values({ email: "x@y.nl" })))
        expect(again.created).toBe(false)
        expect(again.submission.id).toBe(s.id)
        expect(plain(again.submission.values)).toEqual({ email: "a@b.nl" })
      }))

    it.effect("50 parallel creates with one key: exactly one created, all answer the same draft", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const key = fresh("key-race")
        const results = yield* Effect.all(
          Array.from({ length: 50 }, () => submissions.createOrGet(draftOf(seedIds.volunteer, key))),
          unbounded
        )
        expect(results.filter((r) => r.created).length).toBe(1)
        expect(new Set(results.map((r) => r.submission.id)).size).toBe(1)
      }))

    it.effect("keys are per schema: one key on two schemas makes two drafts", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const key = fresh("key-per-schema")
        const a = yield* submissions.createOrGet(draftOf(seedIds.volunteer, key))
        const b = yield* submissions.createOrGet(draftOf(seedIds.registration, key))
        expect([a.created, b.created]).toEqual([true, true])
        expect(a.submission.id).not.toBe(b.submission.id)
        expect(b.submission.schema_id).toBe(seedIds.registration)
      }))
  })

  describe("Submissions lookups", () => {
    it.effect("findByKey and findInSchema answer only within the schema; a malformed id is unknown", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer)
        const byKey = yield* submissions.findByKey(seedIds.volunteer, submission.idempotency_key)
        expect(Option.map(byKey, (s) => s.id)).toEqual(Option.some(submission.id))
        expect(Option.isNone(yield* submissions.findByKey(seedIds.registration, submission.idempotency_key))).toBe(true)
        expect(Option.isNone(yield* submissions.findByKey(seedIds.volunteer, fresh("key-unknown")))).toBe(true)
        const inSchema = yield* submissions.findInSchema(seedIds.volunteer, submission.id)
        expect(Option.map(inSchema, (s) => s.id)).toEqual(Option.some(submission.id))
        expect(Option.isNone(yield* submissions.findInSchema(seedIds.registration, submission.id))).toBe(true)
        expect(Option.isNone(yield* submissions.findInSchema(seedIds.volunteer, unknownUuid))).toBe(true)
        expect(Option.isNone(yield* submissions.findInSchema(seedIds.volunteer, "not-a-uuid"))).toBe(true)
      }))
  })

  describe("Submissions.save", () => {
    it.effect("a save or submit validated against a revision the form has left writes nothing: RevisionChanged", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const current = Option.getOrThrow(yield* (yield* FormSchemas).findCurrent(seedIds.volunteer)).revision
        const { submission } = yield* create(seedIds.volunteer, values({ name: "Ada" }))
        const saved = yield* submissions.save(seedIds.volunteer, submission.id, values({ shirt: "M" }), current)
        expect(saved.auto_save_count).toBe(1)
        const stale = yield* Effect.flip(submissions.save(seedIds.volunteer, submission.id, values({ shirt: "S" }), current + 1))
        expect(stale._tag).toBe("RevisionChanged")
        const staleSubmit = yield* Effect.flip(submissions.submit({ ...submitOf(saved, values({})), revision: current + 1 }))
        expect(staleSubmit._tag).toBe("RevisionChanged")
        const stored = Option.getOrThrow(yield* submissions.findInSchema(seedIds.volunteer, submission.id))
        expect([stored.status, stored.auto_save_count, plain(stored.values)]).toEqual(["draft", 1, { name: "Ada", shirt: "M" }])
        const done = yield* submissions.submit({ ...submitOf(stored, values({ name: "Ada", shirt: "M" })), revision: current })
        expect(done.status).toBe("submitted")
        // A create: a new key is refused under a stale revision; a stored key is returned whatever the revision.
        const key = fresh("key-revision")
        const refused = yield* Effect.flip(submissions.createOrGet({ ...draftOf(seedIds.volunteer, key, values({ name: "x" })), revision: current + 1 }))
        expect(refused._tag).toBe("RevisionChanged")
        expect(yield* submissions.findByKey(seedIds.volunteer, key)).toEqual(Option.none())
        const made = yield* submissions.createOrGet({ ...draftOf(seedIds.volunteer, key, values({ name: "x" })), revision: current })
        expect(made.created).toBe(true)
        const replayed = yield* submissions.createOrGet({ ...draftOf(seedIds.volunteer, key, values({})), revision: current + 1 })
        expect([replayed.created, replayed.submission.id]).toEqual([false, made.submission.id])
      }))

    it.effect("a create for a form that no longer exists (deleted since it was read) writes nothing: RevisionChanged", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const key = fresh("key-gone")
        for (const draft of [draftOf("fs-deleted-meanwhile", key), { ...draftOf("fs-deleted-meanwhile", key, values({ name: "x" })), revision: 1 }]) {
          const refused = yield* Effect.flip(submissions.createOrGet(draft))
          expect(refused._tag).toBe("RevisionChanged")
        }
        expect(yield* submissions.findByKey("fs-deleted-meanwhile", key)).toEqual(Option.none())
      }))

    it.effect("merges the patch over the stored values and counts one save each time", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer, values({ email: "a@b.nl", name: "Ada" }))
        const once = yield* submissions.save(seedIds.volunteer, submission.id, values({ shirt: "M" }))
        expect(plain(once.values)).toEqual({ email: "a@b.nl", name: "Ada", shirt: "M" })
        expect(once.auto_save_count).toBe(1)
        expect(once.version).toBeGreaterThan(submission.version)
        const twice = yield* submissions.save(seedIds.volunteer, submission.id, values({ name: null, note: ["x", 1] }))
        expect(plain(twice.values)).toEqual({ email: "a@b.nl", name: null, shirt: "M", note: ["x", 1] })
        expect([twice.auto_save_count, twice.status]).toEqual([2, "draft"])
        expect(twice.version).toBeGreaterThan(once.version)
        const empty = yield* submissions.save(seedIds.volunteer, submission.id, values({}))
        expect(empty.auto_save_count).toBe(3)
      }))

    it.effect("the language: recorded on create, replaced by a save or submit that names one, kept by one that does not", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* submissions.createOrGet({
          ...draftOf(seedIds.volunteer, fresh("key-language"), values({}), seedIds.festival),
          language: "de-CH"
        })
        expect(submission.language).toBe("de-CH")
        expect((yield* submissions.save(seedIds.volunteer, submission.id, values({ name: "Ada" }))).language).toBe("de-CH")
        const dutch = yield* submissions.save(seedIds.volunteer, submission.id, values({}), undefined, "nl")
        expect(dutch.language).toBe("nl")
        const kept = yield* submissions.submit(submitOf(dutch, values({ name: "Ada" })))
        expect(kept.language).toBe("nl")
        const other = yield* create(seedIds.volunteer)
        const english = yield* submissions.submit({ ...submitOf(other.submission, values({})), language: "en-GB" })
        expect(english.language).toBe("en-GB")
        const stored = yield* submissions.findInSchema(seedIds.volunteer, other.submission.id)
        expect(Option.map(stored, (s) => s.language)).toEqual(Option.some("en-GB"))
      }))

    it.effect("slugs named like object members are stored as plain values", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer)
        const saved = yield* submissions.save(seedIds.volunteer, submission.id, values({ constructor: "c", to_string: "t" }))
        expect(Object.hasOwn(saved.values, "constructor")).toBe(true)
        expect(plain(saved.values)).toEqual({ constructor: "c", to_string: "t" })
      }))

    it.effect("20 parallel saves of different slugs: all kept, counter 20", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.wide)
        const slugs = Array.from({ length: 20 }, (_, i) => `s${String(i).padStart(3, "0")}`)
        yield* Effect.all(slugs.map((slug) => submissions.save(seedIds.wide, submission.id, values({ [slug]: slug }))), unbounded)
        const stored = yield* submissions.findInSchema(seedIds.wide, submission.id)
        expect(Option.map(stored, (s) => s.auto_save_count)).toEqual(Option.some(20))
        expect(Option.map(stored, (s) => plain(s.values))).toEqual(Option.some(Object.fromEntries(slugs.map((s) => [s, s]))))
      }))

    it.effect("an unknown id, an id of another schema or a malformed id fails SubmissionNotFound", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer)
        const tags = yield* Effect.all([
          Effect.flip(submissions.save(seedIds.volunteer, unknownUuid, values({}))),
          Effect.flip(submissions.save(seedIds.registration, submission.id, values({}))),
          Effect.flip(submissions.save(seedIds.volunteer, "not-a-uuid", values({})))
        ])
        expect(tags.map((e) => e._tag)).toEqual(["SubmissionNotFound", "SubmissionNotFound", "SubmissionNotFound"])
      }))
  })

  describe("Submissions.submit", () => {
    it.effect("stores exactly the command's values at its time, without counting a save", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer, values({ email: "a@b.nl" }))
        const saved = yield* submissions.save(seedIds.volunteer, submission.id, values({ name: "Ada", shirt: "M" }))
        const at = Date.parse("2027-07-01T10:00:00.123Z")
        const done = yield* submissions.submit(submitOf(saved, values({ email: "a@b.nl", name: "Ada" }), { submittedAt: at }))
        expect([done.status, done.submitted_at, done.auto_save_count]).toEqual(["submitted", at, 1])
        expect(plain(done.values)).toEqual({ email: "a@b.nl", name: "Ada" })
        const stored = yield* submissions.findInSchema(seedIds.volunteer, submission.id)
        expect(Option.map(stored, (s) => [s.status, s.submitted_at, plain(s.values)])).toEqual(
          Option.some(["submitted", at, { email: "a@b.nl", name: "Ada" }])
        )
      }))

    it.effect("a submit at a stale version fails VersionConflict and writes nothing", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer)
        const saved = yield* submissions.save(seedIds.volunteer, submission.id, values({ name: "Ada" }))
        const email = `${fresh("stale")}@example.org`
        const claims = [{ slug: "email", normalized: email }]
        const error = yield* Effect.flip(submissions.submit(submitOf(submission, values({ email }), { claims })))
        expect(error._tag).toBe("VersionConflict")
        const stored = yield* submissions.findInSchema(seedIds.volunteer, submission.id)
        expect(Option.map(stored, (s) => [s.status, s.version, plain(s.values)])).toEqual(
          Option.some(["draft", saved.version, { name: "Ada" }])
        )
        expect(yield* (yield* UniqueValues).taken(seedIds.volunteer, claims)).toEqual([])
      }))

    it.effect("a second submit, or a save after the submit, fails AlreadySubmitted", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer)
        yield* submissions.submit(submitOf(submission, values({ name: "Ada" })))
        const again = yield* Effect.flip(submissions.submit(submitOf(submission, values({ name: "Bob" }))))
        const save = yield* Effect.flip(submissions.save(seedIds.volunteer, submission.id, values({ name: "Bob" })))
        expect([again._tag, save._tag]).toEqual(["AlreadySubmitted", "AlreadySubmitted"])
        const stored = yield* submissions.findInSchema(seedIds.volunteer, submission.id)
        expect(Option.map(stored, (s) => plain(s.values))).toEqual(Option.some({ name: "Ada" }))
      }))

    it.effect("a submit of an unknown id or of another schema's submission fails SubmissionNotFound", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer)
        const other = yield* Effect.flip(submissions.submit({ ...submitOf(submission, values({})), schema_id: seedIds.registration }))
        const unknown = yield* Effect.flip(submissions.submit({ ...submitOf(submission, values({})), id: unknownUuid }))
        expect([other._tag, unknown._tag]).toEqual(["SubmissionNotFound", "SubmissionNotFound"])
      }))

    it.effect("20 parallel submits of one draft: exactly one succeeds", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const { submission } = yield* create(seedIds.volunteer)
        const outcomes = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) => Effect.result(submissions.submit(submitOf(submission, values({ name: `n${i}` }))))),
          unbounded
        )
        expect(outcomes.filter((o) => o._tag === "Success").length).toBe(1)
        for (const o of outcomes) if (o._tag === "Failure") expect(["AlreadySubmitted", "VersionConflict"]).toContain(o.failure._tag)
      }))

    it.effect("8 drafts claiming one unique value in parallel: one wins, the others fail UniqueTaken and stay drafts", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const email = `${fresh("race")}@example.org`
        const drafts = yield* Effect.all(Array.from({ length: 8 }, () => create(seedIds.volunteer)), unbounded)
        const outcomes = yield* Effect.all(
          drafts.map(({ submission }) =>
            Effect.result(submissions.submit(submitOf(submission, values({ email }), { claims: [{ slug: "email", normalized: email }] })))
          ),
          unbounded
        )
        expect(outcomes.filter((o) => o._tag === "Success").length).toBe(1)
        for (const o of outcomes) {
          if (o._tag === "Failure") expect(o.failure).toMatchObject({ _tag: "UniqueTaken", slugs: ["email"] })
        }
        const stored = yield* Effect.all(drafts.map(({ submission }) => submissions.findInSchema(seedIds.volunteer, submission.id)))
        expect(stored.filter((s) => Option.isSome(s) && s.value.status === "submitted").length).toBe(1)
      }))
  })

  describe("UniqueValues.taken", () => {
    it.effect("sees only values of submitted submissions of the same schema and slug", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const unique = yield* UniqueValues
        const email = `${fresh("taken")}@example.org`
        const claim = { slug: "email", normalized: email }
        const { submission } = yield* create(seedIds.volunteer, values({ email }))
        expect(yield* unique.taken(seedIds.volunteer, [claim])).toEqual([])
        yield* submissions.submit(submitOf(submission, values({ email }), { claims: [claim] }))
        expect(yield* unique.taken(seedIds.volunteer, [claim, { slug: "nickname", normalized: "free" }])).toEqual(["email"])
        expect(yield* unique.taken(seedIds.volunteer, [{ slug: "nickname", normalized: email }])).toEqual([])
        expect(yield* unique.taken(seedIds.registration, [claim])).toEqual([])
        expect(yield* unique.taken(seedIds.volunteer, [])).toEqual([])
      }))
  })
}
