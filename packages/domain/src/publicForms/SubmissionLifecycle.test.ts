import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { applySave, applySubmit, newDraft } from "./SubmissionLifecycle.js"

const draft = newDraft({
  id: "s-1",
  schema_id: "fs-1",
  idempotency_key: "key-0000000000000001",
  event_id: "ev-1",
  subject_id: null,
  language: "en",
  values: { email: "a@b.nl" },
  now: 1_000
})

const tagOf = <A, E extends { readonly _tag: string }>(result: Result.Result<A, E>): string =>
  Result.isFailure(result) ? result.failure._tag : "Success"

describe("the submission state machine", () => {
  it("a new draft has no save counted and no submit time", () => {
    expect([draft.status, draft.auto_save_count, draft.submitted_at, draft.version]).toEqual(["draft", 0, null, 1])
    expect([draft.created_at, draft.updated_at]).toEqual([1_000, 1_000])
  })

  it("a save merges, counts one and moves the version", () => {
    const saved = applySave(draft, { name: "Ada" }, 2_000)
    expect(Result.isSuccess(saved)).toBe(true)
    if (Result.isFailure(saved)) return
    expect({ ...saved.success.values }).toEqual({ email: "a@b.nl", name: "Ada" })
    expect([saved.success.auto_save_count, saved.success.version, saved.success.updated_at]).toEqual([1, 2, 2_000])
  })

  it("a submit stores exactly the given values and does not count a save", () => {
    const submitted = applySubmit(draft, 1, { name: "Ada" }, 3_000)
    if (Result.isFailure(submitted)) return expect.fail("the submit failed")
    expect({ ...submitted.success.values }).toEqual({ name: "Ada" })
    expect([submitted.success.status, submitted.success.submitted_at, submitted.success.auto_save_count]).toEqual([
      "submitted",
      3_000,
      0
    ])
  })

  it.each([
    { case: "save a submitted submission", run: () => applySave(submittedOnce(), {}, 5), tag: "AlreadySubmitted" },
    { case: "submit a submitted submission", run: () => applySubmit(submittedOnce(), 2, {}, 5), tag: "AlreadySubmitted" },
    { case: "submit at a stale version", run: () => applySubmit(draft, 0, {}, 5), tag: "VersionConflict" },
    { case: "submit at a future version", run: () => applySubmit(draft, 2, {}, 5), tag: "VersionConflict" }
  ])("$case → $tag", ({ run, tag }) => {
    expect(tagOf(run())).toBe(tag)
  })
})

function submittedOnce() {
  const submitted = applySubmit(draft, 1, {}, 3_000)
  if (Result.isFailure(submitted)) throw new Error("unreachable")
  return submitted.success
}
