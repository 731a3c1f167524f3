/**
 * Runs a use case of the public form or the portal in the language chosen for the request (CONTRACT §19): the use
 * case is told the request's `lang` and `Accept-Language` and reports the language it chose once the form is known;
 * the answer, success or error, then carries `Content-Language` and its envelope `message` in that language. Every
 * answer varies by `Accept-Language`; one given before a form was known (an unknown token) stays English.
 */
import { Effect } from "effect"
import { HttpEffect, HttpServerResponse, type HttpServerRequest } from "effect/http"
import type { AnswerLanguage } from "@forms/domain"
import type { ErrorBody } from "../http/ErrorEnvelope.js"
import { errorKeyOf, errorMessageIn } from "./errorTexts/ErrorTexts.js"
import { languageRequestOf, varyByLanguage } from "./requestLanguage.js"

const hasEnvelope = (error: unknown): error is { readonly error: ErrorBody } =>
  typeof error === "object" && error !== null && "error" in error && typeof error.error === "object" &&
  error.error !== null && "code" in error.error && "message" in error.error

/** A wire error with its envelope's message in `language` (its code, fields and class unchanged). */
export const localiseWireError = <E>(error: E, language: string): E => {
  if (!hasEnvelope(error)) return error
  const key = errorKeyOf(error.error.code, error.error.message)
  if (key === undefined) return error
  const message = errorMessageIn(key, language)
  if (message === error.error.message) return error
  const Class = error.constructor as new(props: { readonly error: ErrorBody }) => E
  return new Class({ error: { ...error.error, message } })
}

const contentLanguage = (language: string) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "content-language", language))
  )

export const inChosenLanguage = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  run: (asked: AnswerLanguage) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.suspend(() => {
    let chosen: string | undefined
    const asked: AnswerLanguage = {
      ...languageRequestOf(request),
      chosen: (choice) => {
        chosen = choice.language
      }
    }
    const inChosen = Effect.suspend(() => chosen === undefined ? Effect.void : contentLanguage(chosen))
    return Effect.andThen(varyByLanguage, run(asked)).pipe(
      Effect.tap(() => inChosen),
      Effect.tapError(() => inChosen),
      Effect.mapError((error) => chosen === undefined ? error : localiseWireError(error, chosen))
    )
  })
