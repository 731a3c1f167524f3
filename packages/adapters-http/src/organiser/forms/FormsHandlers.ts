/**
 * Handlers of the `forms` group: after the key, the body or query (415, 413, 400), then the `admin` limit
 * (429), then only the domain's `FormAuthoring` use cases (404, 428, 412, 422, 409). Every answer carrying a
 * form carries its revision as a strong `ETag`.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { type AdminForm, etagOf, FormAuthoring, formKeyOf } from "@forms/domain"
import { Api } from "../../Api.js"
import { wireErrors } from "../../http/errorTable.js"
import { createdCodec, listBody } from "../../http/paging.js"
import { appendHeaders } from "../../http/rateLimitHeaders.js"
import { HttpConfig } from "../../HttpConfig.js"
import { publicBaseOf } from "../AdminConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiserSteps.js"
import { toAdminFormItemWire, toAdminFormWire, toTokenRotationWire } from "./wire.js"

/** 32 random bytes in base64url. */
const newToken = (): string => randomBytes(32).toString("base64url")

const ifMatch = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const value = request.headers["if-match"]
  return typeof value === "string" ? value : undefined
}

/** The form's answer, its revision in `ETag` (a header the document does not list, so it is added to the response). */
const formAnswer = (form: AdminForm, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    yield* appendHeaders({ etag: etagOf(form.revision) })
    return { data: toAdminFormWire(form, yield* publicBaseOf(request)) }
  })

export const FormsHandlers = HttpApiBuilder.group(
  Api,
  "forms",
  Effect.fn(function*(handlers) {
    const authoring = yield* FormAuthoring
    const { maxBodyBytes } = yield* HttpConfig

    return handlers
      .handle("listForms", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          return listBody(yield* wireErrors(authoring.listForms(actor, page)), formKeyOf, createdCodec, toAdminFormItemWire)
        }))
      .handleRaw("createForm", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return yield* formAnswer(yield* wireErrors(authoring.createForm(actor, body, newToken())), request)
        }))
      .handle("getForm", ({ params, request }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return yield* formAnswer(yield* wireErrors(authoring.getForm(actor, params.formId)), request)
        }))
      .handleRaw("replaceForm", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          const form = yield* wireErrors(authoring.replaceForm(actor, params.formId, body, ifMatch(request)))
          return yield* formAnswer(form, request)
        }))
      .handleRaw("patchForm", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          const form = yield* wireErrors(authoring.patchForm(actor, params.formId, body, ifMatch(request)))
          return yield* formAnswer(form, request)
        }))
      .handle("deleteForm", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(authoring.deleteForm(actor, params.formId))
        }))
      .handle("rotateFormToken", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, maxBodyBytes)
          const form = yield* wireErrors(authoring.rotateToken(actor, params.formId, newToken()))
          return { data: toTokenRotationWire(form, yield* publicBaseOf(request)) }
        }))
  })
)
