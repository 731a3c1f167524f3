/**
 * Handlers of the pages group: the hosted form and portal pages (the token checked first, so an unknown
 * one gets its HTML error page and status), `/embed.js` and `/favicon.ico` with their ETags. They answer raw responses: a page's
 * error is an HTML page of its own status, which no error schema chooses, and every answer names its charset
 * in `Content-Type`, which the document's media types (`text/html`, `text/javascript`) do not.
 */
import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import {
  type ArtistGone,
  ArtistPortal,
  chooseLanguage,
  type FormNotFound,
  type PortalNotFound,
  PublicForms,
  translateForm,
  type Unavailable
} from "@forms/domain"
import { languageRequestOf, varyingByLanguage } from "../languages/requestLanguage.js"
import { Api } from "../Api.js"
import { errorTable } from "../http/errorTable.js"
import { ifNoneMatchHolds } from "../http/etag.js"
import { elementPage, errorPage, htmlResponse, pageHeaders } from "./pageHtml.js"
import { pageCatalogues, pageLanguageOf } from "../languages/pageTexts.js"
import { faviconEtag, faviconSvg, faviconType } from "./favicon.js"
import { WebAssets } from "./WebAssets.js"

/**
 * The HTML page answering a page's error (no page counts a limit, so none is refused), with its status, in the
 * language chosen for the request among the service's four (CONTRACT §19), with `Content-Language`.
 */
const pageOfError = (
  error: FormNotFound | PortalNotFound | ArtistGone | Unavailable,
  page: "form" | "portal",
  request: HttpServerRequest.HttpServerRequest
) => {
  const status = errorTable[error._tag].status
  const language = pageLanguageOf(languageRequestOf(request))
  const texts = pageCatalogues[language]
  const [title, text] = status === 404
    ? [page === "form" ? texts.formNotFound : texts.portalNotFound, texts.notFound]
    : status === 410
    ? [texts.goneTitle, texts.gone]
    : [texts.unavailableTitle, texts.unavailable]
  return htmlResponse(status, errorPage(title, text, language), { "content-language": language })
}

export const PagesHandlers = HttpApiBuilder.group(
  Api,
  "pages",
  Effect.fn(function*(handlers) {
    const forms = yield* PublicForms
    const portal = yield* ArtistPortal
    return handlers
      .handleRaw("formPage", ({ params, request }) =>
        Effect.gen(function*() {
          const assets = yield* WebAssets
          return yield* forms.getForm(params.token).pipe(
            Effect.map((view) => {
              // The page in the language chosen for this request (CONTRACT §19), its element asking for the same.
              const { language } = chooseLanguage(view.schema, languageRequestOf(request))
              const { name } = translateForm(view.schema, language)
              const page = elementPage(name, "forms-embed", params.token, { version: assets.embedVersion, lang: language })
              return htmlResponse(200, page, { "content-language": language })
            }),
            Effect.catch((error) => Effect.succeed(pageOfError(error, "form", request))),
            Effect.map(varyingByLanguage)
          )
        }))
      .handleRaw("portalPage", ({ params, request }) =>
        Effect.gen(function*() {
          const assets = yield* WebAssets
          return yield* portal.page(params.token).pipe(
            Effect.map((summary) => {
              // In the language chosen among the advance form's (CONTRACT §19), as the portal's routes answer.
              const { language } = chooseLanguage(summary, languageRequestOf(request))
              const page = elementPage(`${summary.artist.name}: advance`, "forms-portal", params.token, {
                version: assets.embedVersion,
                lang: language
              })
              return htmlResponse(200, page, { "content-language": language })
            }),
            Effect.catch((error) => Effect.succeed(pageOfError(error, "portal", request))),
            Effect.map(varyingByLanguage)
          )
        }))
      .handleRaw("embedScript", ({ request }) =>
        Effect.gen(function*() {
          const assets = yield* WebAssets
          const headers = {
            // Scripts carry the pages' policy too.
            ...pageHeaders,
            etag: assets.embedEtag,
            // Revalidated on every use (its name is fixed); a 304 costs no body.
            "cache-control": "no-cache",
            "cross-origin-resource-policy": "cross-origin"
          }
          if (ifNoneMatchHolds(request.headers["if-none-match"], assets.embedEtag)) {
            return HttpServerResponse.empty({ status: 304, headers })
          }
          return HttpServerResponse.text(assets.embedScript, {
            contentType: "text/javascript; charset=utf-8",
            headers
          })
        }))
      .handleRaw("favicon", ({ request }) =>
        Effect.sync(() => {
          // An SVG is a document: it carries the pages' policy (no script runs if it is opened on its own).
          const headers = { ...pageHeaders, etag: faviconEtag, "cache-control": "no-cache" }
          if (ifNoneMatchHolds(request.headers["if-none-match"], faviconEtag)) {
            return HttpServerResponse.empty({ status: 304, headers })
          }
          return HttpServerResponse.text(faviconSvg, { contentType: faviconType, headers })
        }))
  })
)
