/**
 * What a request says about its language (CONTRACT §19), and the headers of an answer in a chosen language: the
 * `lang` query parameter (when sent once) and `Accept-Language`; `Content-Language` and `Vary: Accept-Language`.
 */
import { Effect } from "effect"
import { HttpEffect, HttpServerResponse, type HttpServerRequest } from "effect/http"
import type { LanguageRequest } from "@forms/domain"

/** `lang` when the query holds it once; a repeated or malformed one names no language. */
const langOf = (url: string): string | undefined => {
  const at = url.indexOf("?")
  if (at === -1) return undefined
  try {
    const values = new URLSearchParams(url.slice(at + 1)).getAll("lang")
    return values.length === 1 ? values[0] : undefined
  } catch {
    return undefined
  }
}

export const languageRequestOf = (request: HttpServerRequest.HttpServerRequest): LanguageRequest => ({
  lang: langOf(request.url),
  acceptLanguage: request.headers["accept-language"]
})

/** `Vary` with `Accept-Language` among its names, the names the response had kept. */
export const varyingByLanguage = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const names = (response.headers["vary"] ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "")
  if (names.some((name) => name === "*" || name.toLowerCase() === "accept-language")) return response
  return HttpServerResponse.setHeader(response, "vary", [...names, "Accept-Language"].join(", "))
}

/** Whatever this request ends with (its success or an encoded failure) varies by `Accept-Language`. */
export const varyByLanguage = HttpEffect.appendPreResponseHandler((_request, response) => Effect.succeed(varyingByLanguage(response)))

/** The answer is in `language`, and varies by `Accept-Language`. */
export const answerInLanguage = (language: string) =>
  Effect.andThen(
    varyByLanguage,
    HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "content-language", language))
    )
  )
