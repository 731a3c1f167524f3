/** The in-memory FileUploads: rows beside the store's submissions, each method one critical section. */
import { Effect, Layer, Option, Result } from "effect"
import type { StoredContent } from "../../files/FileUploads.js"
import { FileUploads } from "../../files/FileUploads.js"
import type { UploadedFile } from "../../files/UploadedFile.js"
import { AlreadySubmitted, SubmissionNotFound } from "../../publicForms/errors.js"
import { fileIdsOf } from "../../rules/fileRules.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { findInSchema } from "../publicForms/InMemorySubmissions.js"

export const InMemoryFileUploads = {
  layer: Layer.effect(
    FileUploads,
    Effect.gen(function*() {
      const store = yield* InMemoryStore
      const { data } = store
      const rows = new Map<string, UploadedFile>()
      // Rows detached from their submission at a submit: orphans until their content is gone.
      const detached = new Set<string>()
      const attached = (row: UploadedFile) => !detached.has(row.id)
      const isDraftNow = (submissionId: string) => data.submissions.get(submissionId)?.status === "draft"
      let sequence = 0
      return FileUploads.of({
        insertPending: (upload) =>
          store.atomically((now): Result.Result<string, SubmissionNotFound | AlreadySubmitted> => {
            const submission = findInSchema(data, upload.schema_id, upload.submission_id)
            if (submission === undefined) return Result.fail(new SubmissionNotFound({}))
            if (submission.status !== "draft") return Result.fail(new AlreadySubmitted({}))
            sequence += 1
            const id = `00000000-0000-4000-f000-${sequence.toString(16).padStart(12, "0")}`
            rows.set(id, {
              id,
              submission_id: upload.submission_id,
              field: upload.field,
              name: upload.name,
              size: 0,
              content_type: "application/octet-stream",
              sha256: "",
              state: "pending",
              created_at: now
            })
            return Result.succeed(id)
          }),
        usage: (submissionId, field) =>
          store.atomically(() => {
            let fieldFiles = 0
            let bytes = 0
            for (const row of rows.values()) {
              if (row.submission_id !== submissionId || !attached(row)) continue
              if (row.field === field) fieldFiles++
              if (row.state === "stored") bytes += row.size
            }
            return Result.succeed({ field_files: fieldFiles, submission_bytes: bytes })
          }),
        markStored: (id, content: StoredContent) =>
          store.atomically(() => {
            const row = rows.get(id)
            if (row === undefined || row.state !== "pending" || !isDraftNow(row.submission_id)) {
              rows.delete(id)
              return Result.fail(new AlreadySubmitted({}))
            }
            const stored: UploadedFile = { ...row, ...content, state: "stored" }
            rows.set(id, stored)
            return Result.succeed(stored)
          }),
        remove: (id) => store.atomically(() => Result.succeed(void (rows.delete(id), detached.delete(id)))),
        removeFromDraft: (schemaId, submissionId, fileId) =>
          store.atomically(() => {
            const submission = findInSchema(data, schemaId, submissionId)
            if (submission !== undefined && submission.status !== "draft") return Result.fail(new AlreadySubmitted({}))
            const row = rows.get(fileId)
            if (
              submission === undefined || row === undefined || row.submission_id !== submissionId || row.state !== "stored" ||
              !attached(row)
            ) {
              return Result.succeed(false)
            }
            rows.delete(fileId)
            return Result.succeed(true)
          }),
        findForOrganisation: (organisationId, fileId) =>
          store.atomically(() => {
            const row = rows.get(fileId)
            const submission = row === undefined ? undefined : data.submissions.get(row.submission_id)
            const schema = submission === undefined ? undefined : data.schemas.get(submission.schema_id)
            const own = row !== undefined && row.state === "stored" && attached(row) && schema?.organisation_id === organisationId
            return Result.succeed(own ? Option.some(row) : Option.none())
          }),
        orphans: ({ pendingBefore, unreferencedBefore }, limit) =>
          store.atomically(() =>
            Result.succeed(
              [...rows.values()]
                .filter((row) => {
                  const submission = data.submissions.get(row.submission_id)
                  if (submission === undefined || !attached(row)) return true
                  if (row.state === "pending") return row.created_at < pendingBefore
                  const value = Object.hasOwn(submission.values, row.field) ? submission.values[row.field] : undefined
                  return row.created_at < unreferencedBefore && !(fileIdsOf(value) ?? []).includes(row.id)
                })
                .sort((a, b) => a.created_at - b.created_at)
                .slice(0, limit)
                .map((row) => row.id)
            )
          ),
        storedOf: (submissionId) =>
          store.atomically(() =>
            Result.succeed([...rows.values()].filter((row) => row.submission_id === submissionId && row.state === "stored" && attached(row)))
          ),
        storedOfMany: (submissionIds) =>
          store.atomically(() => {
            const wanted = new Set(submissionIds)
            return Result.succeed(
              [...rows.values()].filter((row) => wanted.has(row.submission_id) && row.state === "stored" && attached(row))
            )
          }),
        detachUnreferenced: (submissionId, keep) =>
          store.atomically(() => {
            if (data.submissions.get(submissionId)?.status !== "submitted") return Result.succeed([])
            const kept = new Set(keep)
            const ids = [...rows.values()]
              .filter((row) => row.submission_id === submissionId && row.state === "stored" && attached(row) && !kept.has(row.id))
              .map((row) => row.id)
            for (const id of ids) detached.add(id)
            return Result.succeed(ids)
          })
      })
    })
  )
} as const
