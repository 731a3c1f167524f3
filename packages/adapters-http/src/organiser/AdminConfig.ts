/**
 * The organiser API's configuration, and its `admin` limit: per API key, a sliding window of ADMIN_RATE_LIMIT_PER_MINUTE, through
 * the shared RateLimiter port. Every request that reaches this step counts; from here on every answer
 * carries `RateLimit-Policy: "admin";q=…;w=60` and `RateLimit`, and a refusal also `Retry-After`.
 */
import { Context, Effect, Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { type Actor, RateLimiter, type RateLimitState } from "@forms/domain"
import { countRefusal } from "@forms/domain/internal"
import { apiError } from "../http/errorTable.js"
import { appendHeaders, rateLimitHeaders } from "../http/rateLimitHeaders.js"

export interface AdminConfigShape {
  /** ADMIN_RATE_LIMIT_PER_MINUTE. */
  readonly limitPerMinute: number
  /** PUBLIC_BASE_URL without a trailing slash; unset: `http://` and the request's Host. */
  readonly publicBaseUrl?: string | undefined
}

export class AdminConfig extends Context.Service<AdminConfig, AdminConfigShape>()("@forms/adapters-http/AdminConfig") {
  static readonly layer = (config: Partial<AdminConfigShape> = {}) =>
    Layer.succeed(AdminConfig, AdminConfig.of({ limitPerMinute: 600, ...config }))
}

/** Where the links an answer carries point: PUBLIC_BASE_URL, else `http://` and the request's Host. */
export const publicBaseOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(AdminConfig, (config) => config.publicBaseUrl ?? `http://${request.headers["host"] ?? "localhost"}`)

const windowMs = 60_000

/** Counts the request for the actor's key; fails with the 429 when over the limit. */
export const adminLimit = (actor: Actor) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const { limitPerMinute } = yield* AdminConfig
    // CLI actors have no key and never reach HTTP; the organisation is the fallback budget.
    const key = `admin:${actor.api_key_id ?? `org:${actor.organisation_id}`}`
    const decision = yield* limiter.hit(key, limitPerMinute, windowMs).pipe(
      Effect.catchTag("Unavailable", () => Effect.fail(apiError("Unavailable")))
    )
    const state: RateLimitState = {
      policy: "admin",
      limit: limitPerMinute,
      window_seconds: windowMs / 1000,
      remaining: decision.remaining,
      reset_seconds: Math.ceil(decision.reset_ms / 1000)
    }
    yield* appendHeaders(rateLimitHeaders(state, { refused: !decision.allowed }))
    if (!decision.allowed) {
      yield* countRefusal("admin")
      return yield* apiError("RateLimited")
    }
  })
