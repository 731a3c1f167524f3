/**
 * Handlers of the `adminSubmissions` group: after the key (middleware), each reads its query (400
 * INVALID_QUERY naming the parameter), counts the request against the `admin` limit (429), then calls only
 * the domain's `SubmissionsOut` use cases (404, 409) and encodes their answers. Exports are streamed.
 */
import { Effect, Result, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import {
  type AdminSubmission,
  contactKeyOf,
  csvHeader,
  csvRow,
  type ExportColumns,
  outboxKeyOf,
  submissionKeyOf,
  SubmissionsOut
} from "@forms/domain"
import { Api } from "../Api.js"
import { type DomainError, fromDomainError } from "../http/errorTable.js"
import { ApiMalformedJson } from "../http/ErrorEnvelope.js"
import { toAdminSubmissionWire, toContactWire, toOutboxEntryWire } from "./wire.js"
import { limitedActor } from "../organiser/organiserSteps.js"
import { createdCodec, listBody } from "../http/paging.js"
import { emailOf, exportFormatOf, outboxStateOf, pageOf, type Parsed, queryOf, submissionFilterOf } from "./submissionsQuery.js"

const json = (data: unknown) => HttpServerResponse.jsonUnsafe({ data })
const listJson = (body: unknown) => HttpServerResponse.jsonUnsafe(body)
const noContent = HttpServerResponse.empty({ status: 204 })
const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, fromDomainError)

/** 400 INVALID_QUERY naming the parameter (CONTRACT §12). */
export const invalidQuery = (parameter: string) =>
  new ApiMalformedJson({ error: { code: "INVALID_QUERY", message: `The query parameter "${parameter}" is malformed.` } })

const parsed = <A>(result: Parsed<A>) =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(invalidQuery(result.failure))


const encoder = new TextEncoder()

/** The export's bytes: one encoded chunk per batch of rows the database handed over, never the whole export. */
const exportBody = (format: "csv" | "ndjson", columns: ExportColumns, rows: Stream.Stream<AdminSubmission, unknown>) => {
  const lines = format === "csv"
    ? Stream.concat(
      Stream.succeed(encoder.encode(csvHeader(columns))),
      Stream.mapArray(rows, (batch) => [encoder.encode(batch.map((row) => csvRow(columns, row)).join(""))] as const)
    )
    : Stream.mapArray(rows, (batch) =>
      [encoder.encode(batch.map((row) => `${JSON.stringify(toAdminSubmissionWire(row))}\n`).join(""))] as const)
  return lines
}

const fileName = (formId: string, format: string) => `${formId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "export"}.${format}`

export const SubmissionsOutHandlers = HttpApiBuilder.group(
  Api,
  "submissionsOut",
  Effect.fn(function*(handlers) {
    const out = yield* SubmissionsOut

    return handlers
      .handleRaw("listSubmissions", ({ params, request }) =>
        Effect.gen(function*() {
          const query = queryOf(request.url)
          const filter = yield* parsed(submissionFilterOf(query))
          const page = yield* parsed(pageOf(request.url, createdCodec))
          const actor = yield* limitedActor
          const result = yield* domain(out.listSubmissions(actor, params.formId, filter, page))
          return listJson(listBody(result, submissionKeyOf, createdCodec, toAdminSubmissionWire))
        }))
      .handleRaw("getSubmission", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return json(toAdminSubmissionWire(yield* domain(out.getSubmission(actor, params.submissionId))))
        }))
      .handleRaw("exportSubmissions", ({ params, request }) =>
        Effect.gen(function*() {
          const query = queryOf(request.url)
          const format = yield* parsed(exportFormatOf(query))
          const filter = yield* parsed(submissionFilterOf(query))
          const actor = yield* limitedActor
          const { columns, rows } = yield* domain(out.exportSubmissions(actor, params.formId, filter))
          return HttpServerResponse.stream(exportBody(format, columns, rows), {
            contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
            headers: {
              "content-disposition": `attachment; filename="${fileName(params.formId, format)}"`,
              "cache-control": "no-store"
            }
          })
        }))
      .handleRaw("eraseSubmission", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(out.eraseSubmission(actor, params.submissionId))
          return noContent
        }))
      .handleRaw("listContacts", ({ request }) =>
        Effect.gen(function*() {
          const email = yield* parsed(emailOf(queryOf(request.url)))
          const page = yield* parsed(pageOf(request.url, createdCodec))
          const actor = yield* limitedActor
          const result = yield* domain(out.contacts(actor, email, page))
          return listJson(listBody(result, contactKeyOf, createdCodec, toContactWire))
        }))
      .handleRaw("eraseContact", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(out.eraseContact(actor, params.contactId))
          return noContent
        }))
      .handleRaw("listOutbox", ({ request }) =>
        Effect.gen(function*() {
          const state = yield* parsed(outboxStateOf(queryOf(request.url)))
          const page = yield* parsed(pageOf(request.url, createdCodec))
          const actor = yield* limitedActor
          const result = yield* domain(out.listOutbox(actor, state, page))
          return listJson(listBody(result, outboxKeyOf, createdCodec, toOutboxEntryWire))
        }))
      .handleRaw("retryOutboxEvent", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return json(toOutboxEntryWire(yield* domain(out.retryOutboxEvent(actor, params.eventId))))
        }))
  })
)
