/** The RateLimit header fields (IETF draft, structured fields) and Retry-After of the rate limits. */
import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import type { Limited, RateLimitState } from "@forms/domain"
import { type DomainError, fromDomainError } from "./errorTable.js"

/** One list member per policy (structured fields): the state's own first, then its `others`. */
export const rateLimitHeaders = (state: RateLimitState, options: { readonly refused: boolean }): Record<string, string> => {
  const all = [state, ...(state.others ?? [])]
  const headers: Record<string, string> = {
    "ratelimit-policy": all.map((s) => `${JSON.stringify(s.policy)};q=${s.limit};w=${s.window_seconds}`).join(", "),
    "ratelimit": all.map((s) => `${JSON.stringify(s.policy)};r=${s.remaining};t=${s.reset_seconds}`).join(", ")
  }
  if (options.refused) headers["retry-after"] = String(state.reset_seconds)
  return headers
}

/** Adds headers to whatever response this request ends with (a success or an encoded failure). */
export const appendHeaders = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

const appendState = (state: RateLimitState | undefined, options: { readonly refused: boolean }) =>
  state === undefined ? Effect.void : appendHeaders(rateLimitHeaders(state, options))

/**
 * Runs a rate-limited use case: the limiter's state becomes the RateLimit headers of its answer (the
 * success, or a `Refused` failure; Retry-After when the refusal is the limit's own), its failure the wire
 * error, and its success the bare value. Failures before the limit step carry no state and no headers.
 */
export const limitedAnswer = <A, E extends DomainError, R>(effect: Effect.Effect<Limited<A>, E, R>) =>
  effect.pipe(
    Effect.tapError((error) =>
      error._tag === "Refused" ? appendState(error.rateLimit, { refused: error.reason._tag === "RateLimited" }) : Effect.void
    ),
    Effect.tap((answer) => appendState(answer.rateLimit, { refused: false })),
    Effect.map((answer) => answer.value),
    Effect.mapError(fromDomainError)
  )
