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

/** A message composed by its cause, recorded in the cause's atomic step. */
export const NewMessage = Schema.Struct({
  kind: MessageKind,
  /** One address that passed the `email` rule. */
  to: Schema.String,
  /** One line (no line breaks). */
  subject: Schema.String,
  body: Schema.String,
  status: Schema.Literals(["held", "pending"])
})
export type NewMessage = typeof NewMessage.Type

/** A recorded message as the sender claims it. */
export const Message = Schema.Struct({
  ...NewMessage.fields,
  id: Schema.String,
  organisation_id: Schema.String,
  submission_id: Schema.NullOr(Schema.String),
  status: MessageStatus,
  /** Attempts counted so far; a claim counts its own. */
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  /** Epoch ms. */
  created_at: Schema.Number,
  sent_at: Schema.NullOr(Schema.Number)
})
export type Message = typeof Message.Type
