/** The draft → submitted state machine, as pure transitions over a stored submission. */
import { Result } from "effect"
import { copyValues, type Values } from "../forms/Values.js"
import { AlreadySubmitted, VersionConflict } from "./errors.js"
import type { Submission } from "./Submission.js"
import { mergeValues } from "./SubmissionValues.js"

export const isDraft = (submission: Submission): boolean => submission.status === "draft"

export interface DraftInit {
  readonly id: string
  readonly schema_id: string
  readonly idempotency_key: string
  readonly event_id: string | null
  readonly subject_id: string | null
  readonly values: Values
  /** The language chosen on the create (CONTRACT §19). */
  readonly language: string
  readonly now: number
}

/** A new draft: no save counted yet (values sent on create are not a save), version 1. */
export const newDraft = (init: DraftInit): Submission => ({
  id: init.id,
  schema_id: init.schema_id,
  status: "draft",
  idempotency_key: init.idempotency_key,
  auto_save_count: 0,
  event_id: init.event_id,
  subject_id: init.subject_id,
  values: copyValues(init.values),
  language: init.language,
  created_at: init.now,
  updated_at: init.now,
  submitted_at: null,
  version: 1
})

/** A save: merges the patch, counts one save; only a draft can be saved. */
export const applySave = (
  submission: Submission,
  patch: Values,
  now: number,
  language?: string
): Result.Result<Submission, AlreadySubmitted> =>
  isDraft(submission)
    ? Result.succeed({
      ...submission,
      values: mergeValues(submission.values, patch),
      language: language ?? submission.language,
      auto_save_count: submission.auto_save_count + 1,
      updated_at: now,
      version: submission.version + 1
    })
    : Result.fail(new AlreadySubmitted({}))

/**
 * A submit: stores exactly `values` (the map that passed strict validation), only while a draft and only
 * at the version that was validated. A submit does not count as a save.
 */
export const applySubmit = (
  submission: Submission,
  expectedVersion: number,
  values: Values,
  submittedAt: number,
  language?: string
): Result.Result<Submission, AlreadySubmitted | VersionConflict> => {
  if (!isDraft(submission)) return Result.fail(new AlreadySubmitted({}))
  if (submission.version !== expectedVersion) return Result.fail(new VersionConflict({}))
  return Result.succeed({
    ...submission,
    status: "submitted",
    values: copyValues(values),
    language: language ?? submission.language,
    submitted_at: submittedAt,
    updated_at: submittedAt,
    version: submission.version + 1
  })
}
