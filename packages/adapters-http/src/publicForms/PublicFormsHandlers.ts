/**
 * Handlers of the public-forms group: they decode bodies (see README: why not HttpApi's own payload
 * decoding), call only the domain's `PublicForms` use cases and encode their answers.
 */
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { PublicForms } from "@forms/domain"
import { Api } from "../Api.js"
import { readJsonBody } from "../http/readJsonBody.js"
import { decodeCreateBody, decodeValuesBody } from "./requestBodies.js"
import { clientOf } from "../http/clientIp.js"
import { type DomainError, fromDomainError } from "../http/errorTable.js"
import { HttpConfig } from "../HttpConfig.js"
import { limitedAnswer } from "../http/rateLimitHeaders.js"
import { toFormWire } from "./wire.js"
import { submissionResponse } from "./wire.js"

const toWire = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.mapError(effect, fromDomainError)

export const PublicFormsHandlers = HttpApiBuilder.group(
  Api,
  "publicForms",
  Effect.fn(function*(handlers) {
    const forms = yield* PublicForms
    const config = yield* HttpConfig
    const client = (request: HttpServerRequest.HttpServerRequest) =>
      clientOf(request, config.trustProxyHops, config.exemptNetworks)

    return handlers
      .handle("getForm", ({ params }) =>
        forms.getForm(params.token).pipe(Effect.map((view) => ({ data: toFormWire(view) })), toWire))
      .handleRaw("createDraft", ({ params, request }) =>
        Effect.gen(function*() {
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeCreateBody(raw, config.sizeLimits)
          const { created, submission } = yield* limitedAnswer(forms.createDraft(params.token, {
            idempotency_key: body.idempotency_key,
            values: body.hasValues ? body.values : undefined
          }, client(request)))
          return submissionResponse(submission, created ? 201 : 200)
        }))
      .handleRaw("saveDraft", ({ params, request }) =>
        Effect.gen(function*() {
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeValuesBody(raw, config.sizeLimits)
          const submission = yield* limitedAnswer(
            forms.save(params.token, params.submissionId, body.values, client(request))
          )
          return submissionResponse(submission)
        }))
      .handleRaw("submit", ({ params, request }) =>
        Effect.gen(function*() {
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeValuesBody(raw, config.sizeLimits)
          const submission = yield* limitedAnswer(
            forms.submit(params.token, params.submissionId, body.values, client(request))
          )
          return submissionResponse(submission)
        }))
      .handle("timeSlots", ({ params }) =>
        forms.timeSlots(params.token).pipe(
          Effect.map((slots) => ({
            data: slots.map((s) => ({
              id: s.id,
              name: s.name,
              date: s.date,
              start_time: s.start_time,
              end_time: s.end_time,
              duration_hours: s.duration_hours,
              event_id: s.event_id,
              event_name: s.event_name,
              capacity: s.capacity,
              remaining: s.remaining
            }))
          })),
          toWire
        ))
      .handle("sections", ({ params }) =>
        forms.sections(params.token).pipe(
          Effect.map((sections) => ({
            data: sections.map((s) => ({ id: s.id, name: s.name, type: s.type, position: s.position }))
          })),
          toWire
        ))
  })
)
