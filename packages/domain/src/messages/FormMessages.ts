/** The messages a form asks for (member `messages` of its definition): a confirmation, a notice, reminders. */
import { Schema } from "effect"

export const ConfirmationMessage = Schema.Struct({
  /** The slug of an email field of the form: the address the confirmation goes to. */
  to_field: Schema.String,
  /** Plain text with placeholders, one line, at most 200 code points. */
  subject: Schema.String,
  /** Plain text with placeholders, at most 10,000 code points. */
  body: Schema.String
})
export type ConfirmationMessage = typeof ConfirmationMessage.Type

export const NotifyMessage = Schema.Struct({
  /** Addresses an organiser typed (each passes the `email` rule), at most 10. */
  to: Schema.Array(Schema.String)
})
export type NotifyMessage = typeof NotifyMessage.Type

export const Reminder = Schema.Struct({ hours_before: Schema.Number })
export type Reminder = typeof Reminder.Type

export const FormMessages = Schema.Struct({
  confirmation: Schema.optionalKey(ConfirmationMessage),
  notify: Schema.optionalKey(NotifyMessage),
  reminders: Schema.optionalKey(Schema.Array(Reminder))
})
export type FormMessages = typeof FormMessages.Type

/** Size limits of a form's messages. */
export const messageLimits = {
  subject: 200,
  body: 10_000,
  notifyTo: 10,
  reminders: 3,
  hoursBefore: { min: 1, max: 720 }
} as const
