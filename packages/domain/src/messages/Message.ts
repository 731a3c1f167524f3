/** A message (email) as recorded: what it is, to whom, its text, and how its sending stands. */
import { Schema } from "effect"

export const MessageKind = Schema.Literals([
  "confirmation",
  "notification",
  "reminder",
  "resume_link",
  "portal_link",
  "section_reminder",
  "promotion"
])
export type MessageKind = typeof MessageKind.Type

/** `held`: recorded while no mail server is configured, never sent; `pending`: due or waiting for a retry. */
export const MessageStatus = Schema.Literals(["held", "pending", "sent", "failed"])
export type MessageStatus = typeof MessageStatus.Type

/**
 * A link a message carries (its body holds the link's marker): what it leads to, and its token sealed under the
 * token key. The URL is rendered at each send attempt, never stored.
 */
export const MessageLink = Schema.Struct({
  kind: Schema.Literals(["resume"]),
  /** The form whose page the link opens (its current public token is used at each attempt). */
  schema_id: Schema.String,
  sealed: Schema.String
})
export type MessageLink = typeof MessageLink.Type

/** A message composed by its cause, recorded in the cause's atomic step. */
export const NewMessage = Schema.Struct({
  kind: MessageKind,
  /** One address that passed the `email` rule. */
  to: Schema.String,
  /** One line (no line breaks). */
  subject: Schema.String,
  body: Schema.String,
  /** `failed` only when a policy refused it before any attempt (the `recipient` limit), with `last_error`. */
  status: Schema.Literals(["held", "pending", "failed"]),
  last_error: Schema.optionalKey(Schema.String),
  link: Schema.optionalKey(MessageLink)
})
export type NewMessage = typeof NewMessage.Type

/** A recorded message as the sender claims it. */
export const Message = Schema.Struct({
  kind: MessageKind,
  to: NewMessage.fields.to,
  subject: NewMessage.fields.subject,
  body: NewMessage.fields.body,
  id: Schema.String,
  organisation_id: Schema.String,
  submission_id: Schema.NullOr(Schema.String),
  engagement_id: Schema.NullOr(Schema.String),
  status: MessageStatus,
  /** Attempts counted so far; a claim counts its own. */
  attempts: Schema.Number,
  /** `attempts` when the current round began (an organiser's retry starts a new one): the retry schedule counts from it. */
  round_start: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  /** Epoch ms. */
  created_at: Schema.Number,
  sent_at: Schema.NullOr(Schema.Number)
})
export type Message = typeof Message.Type

/** A claimed message and, when it carries a link, what the sender renders it from. */
export interface ClaimedMessage extends Message {
  readonly link: { readonly kind: MessageLink["kind"]; readonly page_token: string | null; readonly sealed: string } | null
}
