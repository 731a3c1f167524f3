/** Port: the upload rows. Each method is one atomic step; the draft checks are made by the write itself. */
import { Context, type Effect, type Option } from "effect"
import type { AlreadySubmitted, SubmissionNotFound } from "../publicForms/errors.js"
import type { Unavailable } from "../shared/errors.js"
import type { UploadedFile } from "./UploadedFile.js"

export interface NewUpload {
  readonly schema_id: string
  readonly submission_id: string
  readonly field: string
  readonly name: string
}

/** What a submission holds already: pending uploads count as files, stored ones also as bytes. */
export interface UploadUsage {
  readonly field_files: number
  readonly submission_bytes: number
}

export interface StoredContent {
  readonly size: number
  readonly content_type: string
  readonly sha256: string
}

/** Epoch ms. */
export interface OrphanCutoffs {
  readonly pendingBefore: number
  readonly unreferencedBefore: number
}

/** Epoch ms. */
export interface OrphanCutoffs {
  readonly pendingBefore: number
  readonly unreferencedBefore: number
}

export class FileUploads extends Context.Service<FileUploads, {
  /**
   * Inserts a `pending` row, only while the submission is a draft of the form (else nothing is written); its id,
   * generated here, is also the storage key of the content.
   */
  readonly insertPending: (
    upload: NewUpload
  ) => Effect.Effect<string, SubmissionNotFound | AlreadySubmitted | Unavailable>
  readonly usage: (submissionId: string, field: string) => Effect.Effect<UploadUsage, Unavailable>
  /**
   * Marks a pending row `stored` with its content's facts, only while its submission is still a draft: an
   * upload that lost a race with a submit or an erasure fails (`AlreadySubmitted`) and its row is gone.
   */
  readonly markStored: (id: string, content: StoredContent) => Effect.Effect<UploadedFile, AlreadySubmitted | Unavailable>
  /** Removes a row (a refused or failed upload); removing what is not there succeeds. */
  readonly remove: (id: string) => Effect.Effect<void, Unavailable>
  /**
   * Removes a stored upload of a draft of the form: true when one was removed; `AlreadySubmitted` when the
   * submission is no longer a draft.
   */
  readonly removeFromDraft: (
    schemaId: string,
    submissionId: string,
    fileId: string
  ) => Effect.Effect<boolean, AlreadySubmitted | Unavailable>
  /** A stored upload of a submission of a form of `organisationId`; none for another organisation's. */
  readonly findForOrganisation: (
    organisationId: string,
    fileId: string
  ) => Effect.Effect<Option.Option<UploadedFile>, Unavailable>
  /**
   * Ids of rows whose content must go: uploads of erased (or swept) submissions or detached at a submit, `pending`
   * rows created before `pendingBefore` (an upload that died half-way), and stored uploads created before
   * `unreferencedBefore` that their submission's values do not reference. At most `limit`, oldest first; each
   * stays listed until removed.
   */
  readonly orphans: (cutoffs: OrphanCutoffs, limit: number) => Effect.Effect<ReadonlyArray<string>, Unavailable>
  /** The stored uploads of a submission, oldest first. */
  readonly storedOf: (submissionId: string) => Effect.Effect<ReadonlyArray<UploadedFile>, Unavailable>
  /** The stored uploads of these submissions (a page or an export batch), oldest first. */
  readonly storedOfMany: (submissionIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<UploadedFile>, Unavailable>
  /**
   * Detaches from a submitted submission its stored uploads whose ids are not in `keep`: they become orphans
   * (listed by `orphans`, no longer the submission's). Returns their ids. Nothing is detached from a draft.
   */
  readonly detachUnreferenced: (
    submissionId: string,
    keep: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<string>, Unavailable>
}>()("@forms/domain/FileUploads") {}
