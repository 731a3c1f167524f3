/** The upload use cases of the public forms: add a file to a draft, remove one. */
import { Context, type Effect, type Stream } from "effect"
import type { FormNotFound } from "../forms/errors.js"
import type { RateLimited } from "../limits/errors.js"
import type { Limited, Refused } from "../limits/Limited.js"
import type { Client } from "../limits/LimitPolicy.js"
import type { AlreadySubmitted, FormClosed, SubmissionNotFound } from "../publicForms/errors.js"
import type { ValidationFailed } from "../rules/errors.js"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { FileNotFound, FileQuota, FileTooLarge, UploadAborted } from "./errors.js"
import type { UploadBody } from "./UploadBody.js"
import type { FileInfo, UploadedFile } from "./UploadedFile.js"

/** An upload's facts and its content, streamed. */
export interface Download {
  readonly file: UploadedFile
  readonly content: Stream.Stream<Uint8Array, Unavailable>
}

export interface UploadRequest {
  /** The `field` query parameter. */
  readonly field: string | undefined
  /** `X-File-Name` percent-decoded; null when it could not be decoded (then `invalid`). */
  readonly name: string | null | undefined
  readonly body: UploadBody
}

export type UploadError =
  | FormNotFound
  | SubmissionNotFound
  | FileTooLarge
  | UploadAborted
  | Refused<RateLimited | SubmissionNotFound | AlreadySubmitted | FormClosed | ValidationFailed | FileTooLarge | FileQuota>
  | Unavailable

export class Files extends Context.Service<Files, {
  /**
   * Content-Length over the server's cap (413) → token (404) → submission (404) → `upload` limit (429) → draft
   * (409) → open (409) → field and name (422) → Content-Length over `max_bytes` (413) → quotas (409) → the body
   * (413) → its type (422 `file_type`) → 201.
   */
  readonly upload: (
    token: string,
    submissionId: string,
    request: UploadRequest,
    client: Client
  ) => Effect.Effect<Limited<FileInfo>, UploadError>
  /** token (404) → submission (404) → `upload` limit (429) → draft (409) → the upload (404) → removed. */
  readonly remove: (
    token: string,
    submissionId: string,
    fileId: string,
    client: Client
  ) => Effect.Effect<
    Limited<void>,
    FormNotFound | SubmissionNotFound | Refused<RateLimited | SubmissionNotFound | AlreadySubmitted | FileNotFound> | Unavailable
  >
  /**
   * Deletes the content, then the row, of every orphaned upload (of erased submissions; pending for over an hour):
   * run after an erasure commits and by the retention sweep; a delete that fails is tried again next time.
   */
  readonly removeOrphans: Effect.Effect<number, Unavailable>
  /** The organiser's download: a stored upload of the actor's organisation (404 `FILE_NOT_FOUND` for another's). */
  readonly download: (actor: Actor, fileId: string) => Effect.Effect<Download, FileNotFound | Unavailable>
}>()("@forms/domain/Files") {}
