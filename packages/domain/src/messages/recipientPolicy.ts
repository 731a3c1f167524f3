/**
 * The `recipient` policy: per organisation and lower-cased address, at most `perRecipientPerDay` messages to an
 * address a visitor typed within any 24 hours (the rate limiter's sliding window, shared by every process). A
 * message over it is recorded `failed` with `last_error` "recipient limit" and never sent; addresses an organiser
 * typed (notices, a portal link's `send_to`) are not counted. So no one can make the service mail a stranger
 * over and over.
 */
import { Effect } from "effect"
import { RateLimiter } from "../limits/RateLimiter.js"
import type { Unavailable } from "../shared/errors.js"
import type { MessageKind, NewMessage } from "./Message.js"
import { MessagesConfig } from "./MessagesConfig.js"

export const recipientWindowMs = 86_400_000
export const recipientLimitError = "recipient limit"

/** Kinds whose address a visitor typed (a confirmation's field, and what follows from it). */
export const visitorTyped = (kind: MessageKind): boolean =>
  kind === "confirmation" || kind === "reminder" || kind === "resume_link" || kind === "promotion"

/** The limiter key of an address of an organisation. */
export const recipientKey = (organisationId: string, address: string): string =>
  `recipient:${organisationId}:${address.toLowerCase()}`

/**
 * The gates of the policy, built once with the ports: `gateFor(organisationId)` is a gate for one cause (one
 * submit, with its rounds), through which each visitor-typed message counts once per address, and one over the
 * limit becomes `failed`. A round lost to a racing save asks again and gets the decision it had.
 */
export const makeRecipientGates = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  const config = yield* MessagesConfig
  return (organisationId: string) => {
    const decided = new Map<string, boolean>()
    const allowed = Effect.fnUntraced(function*(address: string) {
      const key = recipientKey(organisationId, address)
      const known = decided.get(key)
      if (known !== undefined) return known
      const decision = yield* limiter.hit(key, config.perRecipientPerDay, recipientWindowMs)
      decided.set(key, decision.allowed)
      return decision.allowed
    })
    return Effect.fnUntraced(function*(messages: ReadonlyArray<NewMessage>) {
      const out: Array<NewMessage> = []
      for (const message of messages) {
        if (!visitorTyped(message.kind) || message.status === "failed" || (yield* allowed(message.to))) out.push(message)
        else out.push({ ...message, status: "failed", last_error: recipientLimitError })
      }
      return out
    })
  }
})

export type RecipientGate = (messages: ReadonlyArray<NewMessage>) => Effect.Effect<ReadonlyArray<NewMessage>, Unavailable>
