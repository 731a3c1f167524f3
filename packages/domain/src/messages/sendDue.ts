/**
 * One sweep of the sender: claim the due messages (a short transaction, committed), send each with no database
 * connection held, then settle each in its own short write. Sent at least once, by one sender at a time (the
 * claim's lease); the `Message-ID` is the message's own, the same on every attempt.
 */
import { Clock, Effect, Option } from "effect"
import { Mailer, type MailOutcome } from "./Mailer.js"
import type { ClaimedMessage } from "./Message.js"
import { renderedBody, resumeUrl } from "./messageLinks.js"
import { TokenCipher } from "./TokenCipher.js"
import { MessageRows, type Settlement } from "./MessageRows.js"
import { MessagesConfig } from "./MessagesConfig.js"

/** The domain part of an address or of `Name <address>`; `localhost` when none can be read. */
const domainOf = (from: string): string => {
  const match = /@([^\s@<>]+)>?\s*$/.exec(from)
  return match === null ? "localhost" : (match[1] as string)
}

/** `<message id@sender's domain>`: stable for a message, whatever the attempt. */
export const messageIdOf = (id: string, from: string): string => `<${id}@${domainOf(from)}>`

/**
 * What an outcome means for the attempt numbered `attempt` (1 for the first): a temporary failure waits for the
 * schedule's next delay while one is left, then fails; a permanent one fails at once.
 */
export const settlementOf = (
  outcome: MailOutcome,
  attempt: number,
  schedule: ReadonlyArray<number>,
  now: number
): Settlement => {
  if (outcome._tag === "Sent") return { _tag: "Sent" }
  if (outcome._tag === "Permanent") return { _tag: "Failed", reason: outcome.reason }
  const delay = schedule[attempt - 1]
  return delay === undefined
    ? { _tag: "Failed", reason: outcome.reason }
    : { _tag: "Retry", at: now + delay * 1000, reason: outcome.reason }
}

/** Sends what is due now; answers how many messages were attempted. */
export const sendDueMessages = Effect.fn("messages.sendDue")(function*() {
  const config = yield* MessagesConfig
  if (!config.sending) return 0
  const rows = yield* MessageRows
  const mailer = yield* Mailer
  const cipher = yield* Effect.serviceOption(TokenCipher)
  const claimed = yield* rows.claimDue(yield* Clock.currentTimeMillis, config.leaseMs, config.batch)
  /** The link's URL for this attempt, from its token opened now; none when it cannot be made (the form is gone). */
  const linkOf = Effect.fnUntraced(function*(message: ClaimedMessage) {
    const link = message.link
    if (link === null || link.page_token === null || Option.isNone(cipher)) return undefined
    const token = yield* cipher.value.open(link.sealed)
    return token === undefined ? undefined : resumeUrl(config.publicBaseUrl, link.page_token, token)
  })
  const sendOne = Effect.fnUntraced(function*(message: ClaimedMessage) {
    const outcome = yield* mailer.send({
      messageId: messageIdOf(message.id, config.from),
      from: config.from,
      to: message.to,
      subject: message.subject,
      text: renderedBody(message.body, yield* linkOf(message))
    })
    const now = yield* Clock.currentTimeMillis
    // The schedule counts from the round's start: an organiser's retry begins a new round.
    const settlement = settlementOf(outcome, message.attempts - message.round_start, config.retrySchedule, now)
    yield* rows.settle(message.id, message.attempts, settlement, now)
  })
  yield* Effect.forEach(claimed, sendOne, { discard: true })
  return claimed.length
})
