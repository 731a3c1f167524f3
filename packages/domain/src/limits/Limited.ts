/**
 * The answer of a rate-limited use case (CONTRACT §8): a success carries the limiter's state, and a
 * failure at or after the limit step is a `Refused` whose `reason` is the domain error and which carries
 * that state too, so the HTTP adapter writes the RateLimit headers on both from one place.
 */
import { Data, Effect } from "effect"
import type { SectionLocked, SectionNotFound } from "../portal/errors.js"
import type { AlreadySubmitted, FormClosed, SubmissionNotFound } from "../publicForms/errors.js"
import type { FileNotFound, FileQuota, FileTooLarge } from "../files/errors.js"
import type { ValidationFailed } from "../rules/errors.js"
import type { CancelClosed, ManageNotFound, PlaceNotFound } from "../shifts/errors.js"
import type { RateLimited } from "./errors.js"
import type { RateLimitState } from "./RateLimitState.js"

/** `rateLimit` is undefined for a client of an exempt network: no limit counted it, no headers. */
export interface Limited<A> {
  readonly value: A
  readonly rateLimit: RateLimitState | undefined
}

/** The domain errors a use case can answer at or after its limit step. */
export type RefusalReason =
  | RateLimited
  | SubmissionNotFound
  | SectionNotFound
  | SectionLocked
  | AlreadySubmitted
  | FormClosed
  | ValidationFailed
  | FileTooLarge
  | FileQuota
  | FileNotFound
  | ManageNotFound
  | PlaceNotFound
  | CancelClosed

const reasonTags: ReadonlySet<string> = new Set<RefusalReason["_tag"]>([
  "RateLimited",
  "SubmissionNotFound",
  "SectionNotFound",
  "SectionLocked",
  "AlreadySubmitted",
  "FormClosed",
  "ValidationFailed",
  "FileTooLarge",
  "FileQuota",
  "FileNotFound",
  "ManageNotFound",
  "PlaceNotFound",
  "CancelClosed"
])

export class Refused<out R extends RefusalReason = RefusalReason> extends Data.TaggedError("Refused")<{}> {
  constructor(readonly reason: R, readonly rateLimit: RateLimitState | undefined) {
    super()
  }
}

/** What `underLimit` turns a failure into: refusal reasons are wrapped, anything else passes unchanged. */
export type UnderLimit<E> = E extends RefusalReason ? Refused<E> : E

const isRefusalReason = (error: unknown): error is RefusalReason =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" &&
  reasonTags.has(error._tag)

/** Runs the steps after a limit step: the success and every refusal carry the limiter's state. */
export const underLimit = (rateLimit: RateLimitState | undefined) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Limited<A>, UnderLimit<E>, R> =>
  effect.pipe(
    Effect.map((value) => ({ value, rateLimit })),
    Effect.mapError((error) => (isRefusalReason(error) ? new Refused(error, rateLimit) : error) as UnderLimit<E>)
  )
