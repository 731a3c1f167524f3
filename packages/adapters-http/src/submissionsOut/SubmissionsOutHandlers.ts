/**
 * Handlers of the `submissionsOut` group: after the key (middleware), each reads its query (400
 * INVALID_QUERY naming the parameter), counts the request against the `admin` limit (429), then calls only
 * the domain's `SubmissionsOut` use cases (404, 409) and returns what the endpoint's schema encodes.
 */
import { Effect, Result } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { contactKeyOf, outboxKeyOf, submissionKeyOf, SubmissionsOut, VolunteerShifts } from "@forms/domain"
import { Api } from "../Api.js"
import { ApiMalformedJson } from "../http/ErrorEnvelope.js"
import { wireErrors } from "../http/errorTable.js"
import { createdCodec, listBody } from "../http/paging.js"
import { limitedActor } from "../organiser/organiserSteps.js"
import { publicBaseOf } from "../organiser/AdminConfig.js"
import { ManageLinkCreated, manageUrlOf } from "../shifts/manageWire.js"
import { exportBody, exportFileName } from "./exportBody.js"
import { emailOf, exportFormatOf, outboxStateOf, pageOf, type Parsed, queryOf, submissionFilterOf } from "./submissionsQuery.js"
import { toAdminSubmissionWire, toContactWire, toOutboxEntryWire } from "./wire.js"

/** 400 INVALID_QUERY naming the parameter. */
export const invalidQuery = (parameter: string) =>
  new ApiMalformedJson({ error: { code: "INVALID_QUERY", message: `The query parameter "${parameter}" is malformed.` } })

const parsed = <A>(result: Parsed<A>) =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(invalidQuery(result.failure))

export const SubmissionsOutHandlers = HttpApiBuilder.group(
  Api,
  "submissionsOut",
  Effect.fn(function*(handlers) {
    const out = yield* SubmissionsOut
    const shifts = yield* VolunteerShifts

    return handlers
      .handle("listSubmissions", ({ params, request }) =>
        Effect.gen(function*() {
          const filter = yield* parsed(submissionFilterOf(queryOf(request.url)))
          const page = yield* parsed(pageOf(request.url, createdCodec))
          const actor = yield* limitedActor
          const result = yield* wireErrors(out.listSubmissions(actor, params.formId, filter, page))
          return listBody(result, submissionKeyOf, createdCodec, toAdminSubmissionWire)
        }))
      .handle("getSubmission", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return { data: toAdminSubmissionWire(yield* wireErrors(out.getSubmission(actor, params.submissionId))) }
        }))
      .handle("exportSubmissions", ({ params, request }) =>
        Effect.gen(function*() {
          const query = queryOf(request.url)
          const format = yield* parsed(exportFormatOf(query))
          const filter = yield* parsed(submissionFilterOf(query))
          const actor = yield* limitedActor
          const { columns, rows } = yield* wireErrors(out.exportSubmissions(actor, params.formId, filter))
          // A raw stream: the endpoint documents CSV as text, and HttpApi's streams fix one media type and no headers.
          return HttpServerResponse.stream(exportBody(format, columns, rows), {
            contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
            headers: {
              "content-disposition": `attachment; filename="${exportFileName(params.formId, format)}"`,
              "cache-control": "no-store"
            }
          })
        }))
      .handle("eraseSubmission", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(out.eraseSubmission(actor, params.submissionId))
        }))
      .handle("listContacts", ({ request }) =>
        Effect.gen(function*() {
          const email = yield* parsed(emailOf(queryOf(request.url)))
          const page = yield* parsed(pageOf(request.url, createdCodec))
          const actor = yield* limitedActor
          return listBody(yield* wireErrors(out.contacts(actor, email, page)), contactKeyOf, createdCodec, toContactWire)
        }))
      .handle("eraseContact", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(out.eraseContact(actor, params.contactId))
        }))
      .handle("listOutbox", ({ request }) =>
        Effect.gen(function*() {
          const state = yield* parsed(outboxStateOf(queryOf(request.url)))
          const page = yield* parsed(pageOf(request.url, createdCodec))
          const actor = yield* limitedActor
          return listBody(yield* wireErrors(out.listOutbox(actor, state, page)), outboxKeyOf, createdCodec, toOutboxEntryWire)
        }))
      .handle("issueManageLink", ({ params, request }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          const token = yield* wireErrors(shifts.issueManageLink(actor, params.submissionId))
          return new ManageLinkCreated({ data: { manage_url: manageUrlOf(yield* publicBaseOf(request), token) } })
        }))
      .handle("retryOutboxEvent", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return { data: toOutboxEntryWire(yield* wireErrors(out.retryOutboxEvent(actor, params.eventId))) }
        }))
  })
)
