/** The RateLimit header fields (IETF draft, structured fields) and Retry-After of CONTRACT §8. */
import { Effect } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { RateLimitState } from "@forms/domain"
import type { DomainError } from "./errorTable.js"

export const rateLimitHeaders = (state: RateLimitState, refused: boolean): Record<string, string> => {
  const policy = JSON.stringify(state.policy)
  const headers: Record<string, string> = {
    "ratelimit-policy": `${policy};q=${state.limit};w=${state.window_seconds}`,
    "ratelimit": `${policy};r=${state.remaining};t=${state.reset_seconds}`
  }
  if (refused) headers["retry-after"] = String(state.reset_seconds)
  return headers
}

/**
 * The limiter's state a use case failure carries, when the failure came at or after the limit step:
 * `RateLimited` (refused) or any error with a `rateLimit` field. Earlier failures (404, 410) carry none.
 */
export const limiterStateOf = (
  error: DomainError
): { readonly state: RateLimitState; readonly refused: boolean } | undefined => {
  if (error._tag === "RateLimited") return { state: error.state, refused: true }
  if ("rateLimit" in error && error.rateLimit !== undefined) return { state: error.rateLimit, refused: false }
  return undefined
}

/** Adds headers to whatever response this request ends with (a success or an encoded failure). */
export const appendHeaders = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

/** The RateLimit headers of a state, added to the response. */
export const appendRateLimitHeaders = (state: RateLimitState, refused = false) =>
  appendHeaders(rateLimitHeaders(state, refused))

/** On a failure after the limit step, its limiter state becomes headers; the failure passes on unchanged. */
export const tapRateLimitHeaders = <A, E extends DomainError, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.tapError(effect, (error) => {
    const limiter = limiterStateOf(error)
    return limiter === undefined ? Effect.void : appendRateLimitHeaders(limiter.state, limiter.refused)
  })
