/**
 * Handlers of the `publicForms` group: they read bodies themselves (see README: why not HttpApi's own payload
 * decoding), call only the domain's `PublicForms` use cases, and return the values the endpoints' schemas encode.
 */
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { chooseLanguage, PublicForms } from "@forms/domain"
import { inChosenLanguage } from "../languages/inChosenLanguage.js"
import { answerInLanguage, languageRequestOf, varyByLanguage } from "../languages/requestLanguage.js"
import { Api } from "../Api.js"
import { clientOf } from "../http/clientIp.js"
import { wireErrors } from "../http/errorTable.js"
import { limitedAnswer } from "../http/rateLimitHeaders.js"
import { readJsonBody } from "../http/readJsonBody.js"
import { HttpConfig } from "../HttpConfig.js"
import { decodeCreateBody, decodeValuesBody } from "./requestBodies.js"
import { toTimeSlotWire } from "../shifts/wire.js"
import { manageUrlOf } from "../shifts/manageWire.js"
import { draftAnswer, toFormWire, toSectionWire, toSubmissionWire } from "./wire.js"

export const PublicFormsHandlers = HttpApiBuilder.group(
  Api,
  "publicForms",
  Effect.fn(function*(handlers) {
    const forms = yield* PublicForms
    const config = yield* HttpConfig
    const client = (request: HttpServerRequest.HttpServerRequest) =>
      clientOf(request, config.trustProxyHops, config.exemptNetworks)
    // The request's shape first (415, 413, 400, then 422), before the token is looked up.
    const valuesOf = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.flatMap(readJsonBody(request, config.maxBodyBytes), (raw) => decodeValuesBody(raw, config.sizeLimits))

    return handlers
      .handle("getForm", ({ params, request }) =>
        Effect.andThen(
          varyByLanguage,
          wireErrors(forms.getForm(params.token)).pipe(Effect.flatMap((view) => {
            const { language } = chooseLanguage(view.schema, languageRequestOf(request))
            return Effect.as(answerInLanguage(language), { data: toFormWire(view, language) })
          }))
        ))
      // The request's shape is checked before the token (422 in English: no form is known yet), then the use case
      // answers in the language it chose for the form (CONTRACT §19).
      .handleRaw("createDraft", ({ params, request }) =>
        Effect.gen(function*() {
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeCreateBody(raw, config.sizeLimits)
          const { created, submission } = yield* inChosenLanguage(request, (asked) =>
            limitedAnswer(forms.createDraft(params.token, {
              idempotency_key: body.idempotency_key,
              values: body.hasValues ? body.values : undefined
            }, client(request), asked)))
          return draftAnswer(created, submission)
        }))
      .handleRaw("saveDraft", ({ params, request }) =>
        Effect.gen(function*() {
          const body = yield* valuesOf(request)
          const submission = yield* inChosenLanguage(request, (asked) =>
            limitedAnswer(forms.save(params.token, params.submissionId, body.values, client(request), asked)))
          return { data: toSubmissionWire(submission) }
        }))
      .handleRaw("submit", ({ params, request }) =>
        Effect.gen(function*() {
          const body = yield* valuesOf(request)
          const submission = yield* inChosenLanguage(request, (asked) =>
            limitedAnswer(forms.submit(params.token, params.submissionId, body.values, client(request), asked)))
          const token = submission.manage_token
          if (token === undefined) return { data: toSubmissionWire(submission) }
          // A form with a time-slot field: the volunteer's page for their places.
          const base = config.publicBaseUrl ?? `http://${request.headers["host"] ?? "localhost"}`
          return { data: { ...toSubmissionWire(submission), manage_url: manageUrlOf(base, token) } }
        }))
      .handle("timeSlots", ({ params, request }) =>
        inChosenLanguage(request, (asked) => wireErrors(forms.timeSlots(params.token, asked))).pipe(
          Effect.map((slots) => ({ data: slots.map(toTimeSlotWire) }))
        ))
      .handle("sections", ({ params, request }) =>
        inChosenLanguage(request, (asked) => wireErrors(forms.sections(params.token, asked))).pipe(
          Effect.map((sections) => ({ data: sections.map(toSectionWire) }))
        ))
  })
)
