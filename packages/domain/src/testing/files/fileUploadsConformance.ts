/** Conformance of FileUploads: pending rows only on drafts, stored only while still a draft, removal. */
import { describe, expect } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { FileUploads } from "../../files/FileUploads.js"
import { seedIds } from "../../memory/conformanceSeed.js"
import { Submissions } from "../../publicForms/Submissions.js"
import { type ConformanceIt, draftOf, makeFresh, submitOf, values } from "../support.js"

const content = { size: 3, content_type: "application/pdf", sha256: "ab".repeat(32) }
const unknownUuid = "00000000-0000-4000-8000-0000deadbeef"

export const fileUploadsConformance = (it: ConformanceIt): void => {
  const fresh = makeFresh()
  const draft = Effect.gen(function*() {
    const submissions = yield* Submissions
    const { submission } = yield* submissions.createOrGet(draftOf(seedIds.volunteer, fresh("key-files")))
    return submission
  })
  const pending = (submissionId: string, field = "rider") =>
    Effect.flatMap(FileUploads, (uploads) =>
      uploads.insertPending({ schema_id: seedIds.volunteer, submission_id: submissionId, field, name: "rider.pdf" }))

  describe("FileUploads", () => {
    it.effect("a pending row is stored with its content's facts and listed; usage counts it", () =>
      Effect.gen(function*() {
        const uploads = yield* FileUploads
        const submission = yield* draft
        const id = yield* pending(submission.id)
        expect((yield* uploads.usage(submission.id, "rider")).field_files).toBe(1)
        expect(yield* uploads.storedOf(submission.id)).toEqual([])
        const stored = yield* uploads.markStored(id, content)
        expect([stored.id, stored.state, stored.field, stored.name, stored.size]).toEqual([id, "stored", "rider", "rider.pdf", 3])
        expect((yield* uploads.storedOf(submission.id)).map((f) => f.id)).toEqual([id])
        expect(yield* uploads.usage(submission.id, "rider")).toEqual({ field_files: 1, submission_bytes: 3 })
        expect((yield* uploads.usage(submission.id, "other")).field_files).toBe(0)
      }))

    it.effect("no pending row for an unknown submission, another form's, or a submitted one", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const uploads = yield* FileUploads
        expect((yield* Effect.flip(pending(unknownUuid)))._tag).toBe("SubmissionNotFound")
        expect((yield* Effect.flip(pending("not-a-uuid")))._tag).toBe("SubmissionNotFound")
        const submission = yield* draft
        const other = yield* Effect.flip(uploads.insertPending({
          schema_id: seedIds.registration,
          submission_id: submission.id,
          field: "rider",
          name: "a.pdf"
        }))
        expect(other._tag).toBe("SubmissionNotFound")
        yield* submissions.submit(submitOf(submission, values({})))
        expect((yield* Effect.flip(pending(submission.id)))._tag).toBe("AlreadySubmitted")
      }))

    it.effect("an upload that loses the race with a submit is never stored, and its row is gone", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const uploads = yield* FileUploads
        const submission = yield* draft
        const id = yield* pending(submission.id)
        yield* submissions.submit(submitOf(submission, values({})))
        const exit = yield* Effect.exit(uploads.markStored(id, content))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(yield* uploads.storedOf(submission.id)).toEqual([])
        expect((yield* uploads.usage(submission.id, "rider")).field_files).toBe(0)
      }))

    it.effect("removeFromDraft removes a stored upload of the draft once; not another's, not after a submit", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const uploads = yield* FileUploads
        const submission = yield* draft
        const id = yield* pending(submission.id)
        yield* uploads.markStored(id, content)
        const another = yield* draft
        expect(yield* uploads.removeFromDraft(seedIds.volunteer, another.id, id)).toBe(false)
        expect(yield* uploads.removeFromDraft(seedIds.registration, submission.id, id)).toBe(false)
        expect(yield* uploads.removeFromDraft(seedIds.volunteer, submission.id, unknownUuid)).toBe(false)
        expect(yield* uploads.removeFromDraft(seedIds.volunteer, submission.id, "not-a-uuid")).toBe(false)
        expect(yield* uploads.removeFromDraft(seedIds.volunteer, submission.id, id)).toBe(true)
        expect(yield* uploads.removeFromDraft(seedIds.volunteer, submission.id, id)).toBe(false)
        const kept = yield* pending(submission.id)
        yield* uploads.markStored(kept, content)
        yield* submissions.submit(submitOf(submission, values({})))
        expect((yield* Effect.flip(uploads.removeFromDraft(seedIds.volunteer, submission.id, kept)))._tag).toBe("AlreadySubmitted")
      }))

    it.effect("findForOrganisation: a stored upload of the organisation's form; none for another, a pending one or junk", () =>
      Effect.gen(function*() {
        const uploads = yield* FileUploads
        const submission = yield* draft
        const id = yield* pending(submission.id)
        expect(Option.isNone(yield* uploads.findForOrganisation(seedIds.organisation, id))).toBe(true)
        yield* uploads.markStored(id, content)
        const found = yield* uploads.findForOrganisation(seedIds.organisation, id)
        expect(Option.map(found, (f) => [f.id, f.name, f.sha256])).toEqual(Option.some([id, "rider.pdf", content.sha256]))
        expect(Option.isNone(yield* uploads.findForOrganisation("org-someone-else", id))).toBe(true)
        expect(Option.isNone(yield* uploads.findForOrganisation(seedIds.organisation, unknownUuid))).toBe(true)
        expect(Option.isNone(yield* uploads.findForOrganisation(seedIds.organisation, "not-a-uuid"))).toBe(true)
      }))

    it.effect("orphans: pending rows older than the cut-off; stored or fresh rows of a live draft are not", () =>
      Effect.gen(function*() {
        const uploads = yield* FileUploads
        const submission = yield* draft
        const stale = yield* pending(submission.id)
        const stored = yield* pending(submission.id)
        yield* uploads.markStored(stored, content)
        const soon = Date.now() + 60_000
        const listed = yield* uploads.orphans({ pendingBefore: soon, unreferencedBefore: 0 }, 10_000)
        expect(listed).toContain(stale)
        expect(listed).not.toContain(stored)
        expect(yield* uploads.orphans({ pendingBefore: 0, unreferencedBefore: 0 }, 10_000)).not.toContain(stale)
        yield* uploads.remove(stale)
        expect(yield* uploads.orphans({ pendingBefore: soon, unreferencedBefore: 0 }, 10_000)).not.toContain(stale)
      }))

    it.effect("storedOfMany: the stored uploads of the submissions named, none of others, none for junk ids", () =>
      Effect.gen(function*() {
        const uploads = yield* FileUploads
        const first = yield* draft
        const second = yield* draft
        const third = yield* draft
        const a = (yield* uploads.markStored(yield* pending(first.id), content)).id
        const b = (yield* uploads.markStored(yield* pending(second.id, "photos"), content)).id
        yield* pending(second.id)
        const c = (yield* uploads.markStored(yield* pending(third.id), content)).id
        const listed = yield* uploads.storedOfMany([first.id, second.id, "not-a-uuid"])
        expect(listed.map((f) => [f.id, f.submission_id, f.field]).sort()).toEqual(
          [[a, first.id, "rider"], [b, second.id, "photos"]].sort()
        )
        expect(listed.map((f) => f.id)).not.toContain(c)
        expect(yield* uploads.storedOfMany([])).toEqual([])
      }))

    it.effect("detachUnreferenced: nothing of a draft; after a submit the unreferenced become orphans, the kept stay", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const uploads = yield* FileUploads
        const submission = yield* draft
        const kept = (yield* uploads.markStored(yield* pending(submission.id), content)).id
        const dropped = (yield* uploads.markStored(yield* pending(submission.id, "photos"), content)).id
        expect(yield* uploads.detachUnreferenced(submission.id, [kept])).toEqual([])
        expect((yield* uploads.storedOf(submission.id)).length).toBe(2)
        yield* submissions.submit(submitOf(submission, values({})))
        expect(yield* uploads.detachUnreferenced(submission.id, [kept])).toEqual([dropped])
        expect((yield* uploads.storedOf(submission.id)).map((f) => f.id)).toEqual([kept])
        expect((yield* uploads.storedOfMany([submission.id])).map((f) => f.id)).toEqual([kept])
        expect(Option.isNone(yield* uploads.findForOrganisation(seedIds.organisation, dropped))).toBe(true)
        const orphans = yield* uploads.orphans({ pendingBefore: 0, unreferencedBefore: 0 }, 10_000)
        expect(orphans).toContain(dropped)
        expect(orphans).not.toContain(kept)
        expect(yield* uploads.detachUnreferenced(submission.id, [kept])).toEqual([])
        yield* uploads.remove(dropped)
        expect(yield* uploads.orphans({ pendingBefore: 0, unreferencedBefore: 0 }, 10_000)).not.toContain(dropped)
      }))

    it.effect("orphans: a stored upload its values do not name once older than the unreferenced cut-off; a named one never", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const uploads = yield* FileUploads
        const submission = yield* draft
        const named = (yield* uploads.markStored(yield* pending(submission.id), content)).id
        const alone = (yield* uploads.markStored(yield* pending(submission.id), content)).id
        const listed = yield* submissions.save(seedIds.volunteer, submission.id, values({ rider: [named] }))
        expect(listed.values["rider"]).toEqual([named])
        const soon = Date.now() + 60_000
        const before = yield* uploads.orphans({ pendingBefore: 0, unreferencedBefore: 0 }, 10_000)
        expect(before).not.toContain(alone)
        const after = yield* uploads.orphans({ pendingBefore: 0, unreferencedBefore: soon }, 10_000)
        expect(after).toContain(alone)
        expect(after).not.toContain(named)
        yield* submissions.save(seedIds.volunteer, submission.id, values({ rider: named }))
        expect(yield* uploads.orphans({ pendingBefore: 0, unreferencedBefore: soon }, 10_000)).not.toContain(named)
      }))

    it.effect("parallel uploads to one draft: each its own row, all stored", () =>
      Effect.gen(function*() {
        const uploads = yield* FileUploads
        const submission = yield* draft
        const ids = yield* Effect.all(
          Array.from({ length: 12 }, () => Effect.flatMap(pending(submission.id), (id) => uploads.markStored(id, content))),
          { concurrency: "unbounded" }
        )
        expect(new Set(ids.map((f) => f.id)).size).toBe(12)
        expect(yield* uploads.usage(submission.id, "rider")).toEqual({ field_files: 12, submission_bytes: 36 })
      }))
  })
}
