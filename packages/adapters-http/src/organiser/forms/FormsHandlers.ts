/**
 * Handlers of the `adminForms` group: after the key, the body or query (415, 413, 400), then the `admin`
 * limit (429), then only the domain's `FormAuthoring` use cases (404, 428, 412, 422, 409).
 */
import { randomBytes } from "node:crypto"
import { Effect, Result } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { type AdminForm, etagOf, FormAuthoring, formKeyOf } from "@forms/domain"
import { Api } from "../../Api.js"
import { apiError, type DomainError, fromDomainError } from "../../http/errorTable.js"
import { HttpConfig } from "../../HttpConfig.js"
import { toAdminFormItemWire, toAdminFormWire, toTokenRotationWire } from "./wire.js"
import { AdminConfig } from "../AdminConfig.js"
import { bodyThenLimit, limitedActor } from "../organiserSteps.js"
import { createdCodec, listBody, pageRequestOf } from "../../http/paging.js"

const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, fromDomainError)

/** 32 random bytes in base64url (CONTRACT §11). */
const newToken = (): string => randomBytes(32).toString("base64url")

export const FormsHandlers = HttpApiBuilder.group(
  Api,
  "forms",
  Effect.fn(function*(handlers) {
    const authoring = yield* FormAuthoring
    const config = yield* HttpConfig
    const adminConfig = yield* AdminConfig

    const baseOf = (request: HttpServerRequest.HttpServerRequest) =>
      adminConfig.publicBaseUrl ?? `http://${request.headers["host"] ?? "localhost"}`

    /** Every answer that carries a form carries its revision as a strong ETag. */
    const formJson = (form: AdminForm, request: HttpServerRequest.HttpServerRequest, status = 200) =>
      HttpServerResponse.jsonUnsafe({ data: toAdminFormWire(form, baseOf(request)) }, {
        status,
        headers: { etag: etagOf(form.revision) }
      })

    const ifMatch = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
      const value = request.headers["if-match"]
      return typeof value === "string" ? value : undefined
    }

    return handlers
      .handleRaw("listForms", ({ request }) =>
        Effect.gen(function*() {
          const page = pageRequestOf(request.url, createdCodec)
          if (Result.isFailure(page)) return yield* apiError("InvalidQuery")
          const actor = yield* limitedActor
          const result = yield* domain(authoring.listForms(actor, page.success))
          return HttpServerResponse.jsonUnsafe(listBody(result, formKeyOf, createdCodec, toAdminFormItemWire))
        }))
      .handleRaw("createForm", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return formJson(yield* domain(authoring.createForm(actor, body, newToken())), request, 201)
        }))
      .handleRaw("getForm", ({ params, request }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return formJson(yield* domain(authoring.getForm(actor, params.formId)), request)
        }))
      .handleRaw("replaceForm", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return formJson(yield* domain(authoring.replaceForm(actor, params.formId, body, ifMatch(request))), request)
        }))
      .handleRaw("patchForm", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return formJson(yield* domain(authoring.patchForm(actor, params.formId, body, ifMatch(request))), request)
        }))
      .handleRaw("deleteForm", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(authoring.deleteForm(actor, params.formId))
          return HttpServerResponse.empty({ status: 204 })
        }))
      .handleRaw("rotateFormToken", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, config.maxBodyBytes)
          const form = yield* domain(authoring.rotateToken(actor, params.formId, newToken()))
          return HttpServerResponse.jsonUnsafe({ data: toTokenRotationWire(form, baseOf(request)) })
        }))
  })
)
