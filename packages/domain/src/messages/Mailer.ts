/**
 * Port: how a message leaves the process (SMTP in adapters-http/src/messages, or memory). The domain decides what is sent
 * and what an answer means; the adapter only delivers one mail and says how the server answered.
 */
import { Context, type Effect } from "effect"

export interface OutgoingMail {
  /** `<id@domain>`: the same on every attempt of one message, so a receiver can drop duplicates. */
  readonly messageId: string
  readonly from: string
  readonly to: string
  /** One line; the adapter encodes it (RFC 2047). */
  readonly subject: string
  readonly text: string
}

/** Accepted by the server. */
export interface MailSent {
  readonly _tag: "Sent"
}
/** A 4xx answer, a time-out or a lost connection: worth another attempt. `reason` names no address or secret. */
export interface MailTemporary {
  readonly _tag: "Temporary"
  readonly reason: string
}
/** A 5xx answer: never worth another attempt. */
export interface MailPermanent {
  readonly _tag: "Permanent"
  readonly reason: string
}
export type MailOutcome = MailSent | MailTemporary | MailPermanent

export class Mailer extends Context.Service<Mailer, {
  readonly send: (mail: OutgoingMail) => Effect.Effect<MailOutcome>
}>()("@forms/domain/Mailer") {}
