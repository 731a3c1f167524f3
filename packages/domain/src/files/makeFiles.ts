/** The Files service: uploads to a draft in the contract's order of checks, streamed to storage, and their removal. */
import { Clock, Effect, Layer, Option } from "effect"
import { FormsConfig } from "../FormsConfig.js"
import type { FormField } from "../forms/FormField.js"
import type { FormSchema } from "../forms/FormSchema.js"
import { RateLimited } from "../limits/errors.js"
import { Refused, underLimit } from "../limits/Limited.js"
import { type Client, limitKey, uploadBytesPolicy, uploadPolicy } from "../limits/LimitPolicy.js"
import type { RateLimitState } from "../limits/RateLimitState.js"
import { countRefusal } from "../operations/counters.js"
import { RateLimiter } from "../limits/RateLimiter.js"
import { AlreadySubmitted, FormClosed } from "../publicForms/errors.js"
import { makeFormSteps } from "../publicForms/formSteps.js"
import { acceptsSubmissions } from "../publicForms/resolvePublicForm.js"
import { isDraft } from "../publicForms/SubmissionLifecycle.js"
import { submissionLimitStep } from "../publicForms/submissionLimitStep.js"
import { ValidationFailed } from "../rules/errors.js"
import type { Actor } from "../shared/Actor.js"
import type { FieldError } from "../rules/FieldErrors.js"
import {
  accepts,
  contentTypeOf,
  defaultFileMaxCount,
  fileFieldType,
  fileMaxBytesOf,
  fileTypeMessage
} from "../rules/fileRules.js"
import { errorList, requiredMessage } from "../rules/messages.js"
import { FileNotFound, FileQuota, FileTooLarge } from "./errors.js"
import { isFileName } from "./fileName.js"
import { Files, type UploadRequest } from "./Files.js"
import { FileStorage } from "./FileStorage.js"
import { FileUploads } from "./FileUploads.js"
import { removeOrphanedUploads } from "./removeOrphanedUploads.js"
import { fileInfoOf } from "./UploadedFile.js"


const required = errorList({ rule: "required", message: requiredMessage })
const invalidField = errorList({ rule: "invalid", message: "Must name a file field of this form." })
const invalidName = errorList({
  rule: "invalid",
  message: "Must be a name of 1 to 255 characters without control characters, / or \\."
})

/** The `field` and `name` problems of an upload, reported together; undefined when both pass. */
const requestProblems = (
  schema: FormSchema,
  request: UploadRequest
): { readonly field: FormField | undefined; readonly problems: Record<string, ReadonlyArray<FieldError>> | undefined } => {
  const problems: Record<string, ReadonlyArray<FieldError>> = Object.create(null) as Record<string, ReadonlyArray<FieldError>>
  let any = false
  const field = request.field === undefined
    ? undefined
    : schema.fields.find((f) => f.slug === request.field && f.type === fileFieldType)
  if (request.field === undefined || request.field === "") (problems["field"] = required, any = true)
  else if (field === undefined) (problems["field"] = invalidField, any = true)
  if (request.name === undefined || request.name === "") (problems["name"] = required, any = true)
  else if (request.name === null || !isFileName(request.name)) (problems["name"] = invalidName, any = true)
  return { field, problems: any ? problems : undefined }
}

/** The most files a field holds: its `max`, else the default. */
const maxCountOf = (field: FormField): number => {
  const max = field.validation_rules?.max
  const n = typeof max === "number" ? max : typeof max === "string" ? Number(max) : Number.NaN
  return Number.isFinite(n) ? n : defaultFileMaxCount
}

export const makeFiles = Effect.gen(function*() {
  const steps = yield* makeFormSteps
  const uploads = yield* FileUploads
  const storage = yield* FileStorage
  const limiter = yield* RateLimiter
  const config = yield* FormsConfig
  const limitSubmission = submissionLimitStep(limiter)

  const limit = (schema: FormSchema, submissionId: string, client: Client) =>
    client.exempt
      ? Effect.as(steps.findSubmission(schema, submissionId), undefined)
      : limitSubmission(uploadPolicy, config.uploadLimitPerHour, schema.id, client, { schema_id: schema.id, id: submissionId })

  /**
   * The `upload_bytes` step after the `upload` one: refused (429) once the client's stored bytes for the form in
   * the sliding day reach the limit; its state joins the `upload` state in the headers.
   */
  const bytesStep = Effect.fnUntraced(function*(schemaId: string, client: Client, uploadState: RateLimitState | undefined) {
    if (client.exempt || uploadState === undefined) return uploadState
    const limit = config.uploadBytesPerDay
    const usage = yield* limiter.amountUsed(limitKey(uploadBytesPolicy, schemaId, client), uploadBytesPolicy.windowMs)
    const bytes = {
      policy: uploadBytesPolicy.name,
      limit,
      window_seconds: Math.ceil(uploadBytesPolicy.windowMs / 1000),
      remaining: Math.max(0, limit - usage.used),
      reset_seconds: Math.max(0, Math.ceil(usage.reset_ms / 1000))
    }
    if (usage.used >= limit) {
      yield* countRefusal(uploadBytesPolicy.name)
      return yield* new Refused(new RateLimited({}), { ...bytes, others: [uploadState] })
    }
    return { ...uploadState, others: [bytes] }
  })

  /** The state after an upload of `size` bytes was stored and counted. */
  const afterUpload = (state: RateLimitState | undefined, size: number): RateLimitState | undefined =>
    state?.others === undefined ? state : {
      ...state,
      others: state.others.map((o) => (o.policy === uploadBytesPolicy.name ? { ...o, remaining: Math.max(0, o.remaining - size) } : o))
    }

  /** The submission must still be a draft (409). */
  const draftOf = Effect.fnUntraced(function*(schema: FormSchema, submissionId: string) {
    const submission = yield* steps.findSubmission(schema, submissionId)
    if (!isDraft(submission)) return yield* new AlreadySubmitted({})
    return submission
  })

  /** Nothing of a refused upload is kept: its content, then its row. */
  const discard = (id: string) =>
    Effect.andThen(Effect.ignore(storage.remove(id)), Effect.ignore(uploads.remove(id)))

  const upload = Effect.fn("Files.upload")(function*(token: string, submissionId: string, request: UploadRequest, client: Client) {
    const declared = request.body.declaredBytes
    if (declared !== undefined && declared > config.fileMaxBytes) return yield* new FileTooLarge({})
    const schema = yield* steps.resolve(token)
    const rateLimit = yield* bytesStep(schema.id, client, yield* limit(schema, submissionId, client))
    const answer = yield* underLimit(rateLimit)(Effect.gen(function*() {
      yield* draftOf(schema, submissionId)
      if (!acceptsSubmissions(schema, yield* Clock.currentTimeMillis)) return yield* new FormClosed({})
      const { field, problems } = requestProblems(schema, request)
      if (problems !== undefined || field === undefined) return yield* new ValidationFailed({ fields: problems ?? {} })
      const maxBytes = fileMaxBytesOf(field.validation_rules, config.fileMaxBytes)
      if (declared !== undefined && declared > maxBytes) return yield* new FileTooLarge({})
      const usage = yield* uploads.usage(submissionId, field.slug)
      if (usage.field_files >= maxCountOf(field)) return yield* new FileQuota({})
      if (usage.submission_bytes + (declared ?? 0) > config.fileMaxBytesPerSubmission) return yield* new FileQuota({})
      const name = request.name as string
      const id = yield* uploads.insertPending({ schema_id: schema.id, submission_id: submissionId, field: field.slug, name })
      const body = request.body.open(maxBytes)
      const stored = yield* Effect.gen(function*() {
        yield* storage.put(id, body.stream)
        const measured = yield* body.measured
        const contentType = contentTypeOf(measured.detected, name)
        if (!accepts(field.validation_rules?.accept, contentType)) {
          return yield* new ValidationFailed({
            fields: { [field.slug]: errorList({ rule: "file_type", message: fileTypeMessage }) }
          })
        }
        if (usage.submission_bytes + measured.size > config.fileMaxBytesPerSubmission) return yield* new FileQuota({})
        return yield* uploads.markStored(id, { size: measured.size, content_type: contentType, sha256: measured.sha256 })
      }).pipe(Effect.onExit((exit) => (exit._tag === "Success" ? Effect.void : discard(id))))
      if (!client.exempt) {
        yield* limiter.addAmount(limitKey(uploadBytesPolicy, schema.id, client), stored.size, uploadBytesPolicy.windowMs)
      }
      return fileInfoOf(stored)
    }))
    return { ...answer, rateLimit: afterUpload(answer.rateLimit, answer.value.size) }
  })

  const remove = Effect.fn("Files.remove")(function*(token: string, submissionId: string, fileId: string, client: Client) {
    const schema = yield* steps.resolve(token)
    const rateLimit = yield* limit(schema, submissionId, client)
    return yield* underLimit(rateLimit)(Effect.gen(function*() {
      yield* draftOf(schema, submissionId)
      const removed = yield* uploads.removeFromDraft(schema.id, submissionId, fileId)
      if (!removed) return yield* new FileNotFound({})
      yield* storage.remove(fileId).pipe(Effect.ignore)
    }))
  })

  const download = Effect.fn("Files.download")(function*(actor: Actor, fileId: string) {
    const found = yield* uploads.findForOrganisation(actor.organisation_id, fileId)
    if (Option.isNone(found)) return yield* new FileNotFound({})
    const content = yield* storage.get(fileId)
    // A row whose content is gone (a delete that failed half-way is retried by the sweep) is no file.
    if (Option.isNone(content)) return yield* new FileNotFound({})
    return { file: found.value, content: content.value }
  })

  const removeOrphans = removeOrphanedUploads.pipe(
    Effect.provideService(FileUploads, uploads),
    Effect.provideService(FileStorage, storage)
  )

  return Files.of({ upload, remove, download, removeOrphans })
})

/** Needs FormSchemas, Submissions, UniqueValues, RegistrationData, RateLimiter, FileUploads, FileStorage and FormsConfig. */
export const FilesLive = { layer: Layer.effect(Files, makeFiles) } as const
