import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FormNotFound } from "../forms/errors.js"
import { ArtistGone, PortalNotFound, SectionNotFound } from "../portal/errors.js"
import { AlreadySubmitted, FormClosed, SubmissionNotFound } from "../publicForms/errors.js"
import { ValidationFailed } from "../rules/errors.js"
import { Unavailable } from "../shared/errors.js"
import { RateLimited } from "./errors.js"
import { Refused, underLimit } from "./Limited.js"
import type { RateLimitState } from "./RateLimitState.js"

const state: RateLimitState = { policy: "write", limit: 600, window_seconds: 3600, remaining: 599, reset_seconds: 3600 }

describe("underLimit", () => {
  it.effect("a success is wrapped with the limiter's state", () =>
    Effect.gen(function*() {
      expect(yield* underLimit(state)(Effect.succeed({ id: "s-1" }))).toEqual({ value: { id: "s-1" }, rateLimit: state })
    }))

  it.effect("an exempt client's success carries no state", () =>
    Effect.gen(function*() {
      const answer = yield* underLimit(undefined)(Effect.succeed(42))
      expect(answer).toEqual({ value: 42, rateLimit: undefined })
    }))

  it.effect.each([
    { reason: new RateLimited({}) },
    { reason: new SubmissionNotFound({}) },
    { reason: new SectionNotFound({}) },
    { reason: new AlreadySubmitted({}) },
    { reason: new FormClosed({}) },
    { reason: new ValidationFailed({ fields: { email: [{ rule: "email", message: "Not an email." }] } }) }
  ])("a $reason._tag is refused: the reason itself, with the state", ({ reason }) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(underLimit(state)(Effect.fail(reason)))
      expect(error).toBeInstanceOf(Refused)
      if (!(error instanceof Refused)) return
      expect(error._tag).toBe("Refused")
      expect(error.reason).toBe(reason)
      expect(error.rateLimit).toBe(state)
    }))

  it.effect("a refusal of an exempt client carries no state", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(underLimit(undefined)(Effect.fail(new FormClosed({}))))
      expect(error).toMatchObject({ _tag: "Refused", reason: { _tag: "FormClosed" }, rateLimit: undefined })
    }))

  it.effect.each([
    { error: new Unavailable({ reason: "down" }) },
    { error: new FormNotFound({}) },
    { error: new PortalNotFound({}) },
    { error: new ArtistGone({}) }
  ])("any other error ($error._tag) passes unchanged", ({ error }) =>
    Effect.gen(function*() {
      expect(yield* Effect.flip(underLimit(state)(Effect.fail(error)))).toBe(error)
    }))

  it.effect("the error type: reasons become Refused, the rest stays", () =>
    Effect.gen(function*() {
      const effect = Effect.fail(new FormClosed({})) as Effect.Effect<number, FormClosed | Unavailable>
      const error: Refused<FormClosed> | Unavailable = yield* Effect.flip(underLimit(state)(effect))
      expect(error._tag).toBe("Refused")
    }))
})
