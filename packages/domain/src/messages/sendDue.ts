/**
 * One sweep of the sender: claim the due messages (a short transaction, committed), send each with no database
 * connection held, then settle each in its own short write. Sent at least once, by one sender at a time (the
 * claim's lease); the `Message-ID` is the message's own, the same on every attempt.
 */
import { Clock, Effect } from "effect"
import { Mailer, type MailOutcome } from "./Mailer.js"
import type { Message } from "./Message.js"
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
  const claimed = yield* rows.claimDue(yield* Clock.currentTimeMillis, config.leaseMs, config.batch)
  const sendOne = Effect.fnUntraced(function*(message: Message) {
    const outcome = yield* mailer.send({
      messageId: messageIdOf(message.id, config.from),
      from: config.from,
      to: message.to,
      subject: message.subject,
      text: message.body
    })
    const now = yield* Clock.currentTimeMillis
    yield* rows.settle(message.id, message.attempts, settlementOf(outcome, message.attempts, config.retrySchedule, now), now)
  })
  yield* Effect.forEach(claimed, sendOne, { discard: true })
  return claimed.length
})
