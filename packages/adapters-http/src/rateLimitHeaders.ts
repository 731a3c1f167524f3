/** The RateLimit header fields (IETF draft, structured fields) and Retry-After of CONTRACT §8. */
import type { RateLimitState } from "@forms/domain"

export const rateLimitHeaders = (state: RateLimitState, refused: boolean): Record<string, string> => {
  const policy = JSON.stringify(state.policy)
  const headers: Record<string, string> = {
    "ratelimit-policy": `${policy};q=${state.limit};w=${state.window_seconds}`,
    "ratelimit": `${policy};r=${state.remaining};t=${state.reset_seconds}`
  }
  if (refused) headers["retry-after"] = String(state.reset_seconds)
  return headers
}
