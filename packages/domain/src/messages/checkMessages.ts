/**
 * The definition check's part for a form's `messages`: lengths, addresses, the confirmation's email field and
 * placeholders, reminders only on volunteer forms with a confirmation. Each problem at its dotted path.
 */
import type { RuleName } from "../rules/FieldErrors.js"
import { codePointLength, isEmail } from "../rules/types.js"
import { type FormMessages, messageLimits } from "./FormMessages.js"
import { fixedPlaceholders, placeholdersOf } from "./placeholders.js"

export interface MessagesProblem {
  readonly path: string
  readonly rule: RuleName
  readonly message: string
}

/** What the check reads of the form: its type (undefined: not known) and its fields' slugs and types. */
export interface MessagesForm {
  readonly type: string | undefined
  readonly fields: ReadonlyArray<{ readonly slug: string; readonly type: string }>
}

const lineBreak = /[\r\n\u2028\u2029\u0085\u000b\u000c]/

export const checkMessages = (messages: FormMessages, form: MessagesForm): ReadonlyArray<MessagesProblem> => {
  const problems: Array<MessagesProblem> = []
  const add = (path: string, rule: RuleName, message: string) => problems.push({ path, rule, message })
  const slugs = new Set(form.fields.map((f) => f.slug))
  const { confirmation, notify, reminders } = messages
  if (confirmation !== undefined) {
    const at = "messages.confirmation"
    const target = form.fields.find((f) => f.slug === confirmation.to_field)
    if (target === undefined || target.type !== "email") {
      add(`${at}.to_field`, "in", `${JSON.stringify(confirmation.to_field)} is not the slug of an email field of this form.`)
    }
    if (lineBreak.test(confirmation.subject)) add(`${at}.subject`, "invalid", "The subject is one line (no line breaks).")
    else if (codePointLength(confirmation.subject) > messageLimits.subject) {
      add(`${at}.subject`, "max", `At most ${messageLimits.subject} characters.`)
    }
    if (codePointLength(confirmation.body) > messageLimits.body) add(`${at}.body`, "max", `At most ${messageLimits.body} characters.`)
    for (const key of ["subject", "body"] as const) {
      const unknown = placeholdersOf(confirmation[key]).filter((name) => !fixedPlaceholders.has(name) && !slugs.has(name))
      if (unknown.length > 0) {
        add(`${at}.${key}`, "in", `No field of this form has the slug ${JSON.stringify(unknown[0])} (placeholder {{${unknown[0]}}}).`)
      }
    }
  }
  if (notify !== undefined) {
    if (notify.to.length > messageLimits.notifyTo) add("messages.notify.to", "max", `At most ${messageLimits.notifyTo} addresses.`)
    notify.to.forEach((address, i) => {
      if (!isEmail(address)) add(`messages.notify.to.${i}`, "email", "Must be a valid email address.")
    })
  }
  if (reminders !== undefined) {
    if (form.type !== undefined && form.type !== "volunteer") {
      add("messages.reminders", "invalid", "Reminders are only for volunteer forms.")
    } else if (confirmation === undefined) {
      add("messages.reminders", "invalid", "Reminders need a confirmation (its address).")
    }
    if (reminders.length === 0) add("messages.reminders", "min", "At least 1 reminder, or leave the member out.")
    if (reminders.length > messageLimits.reminders) add("messages.reminders", "max", `At most ${messageLimits.reminders} reminders.`)
    reminders.forEach((reminder, i) => {
      const { min, max } = messageLimits.hoursBefore
      if (reminder.hours_before < min) add(`messages.reminders.${i}.hours_before`, "min", `At least ${min}.`)
      if (reminder.hours_before > max) add(`messages.reminders.${i}.hours_before`, "max", `At most ${max}.`)
    })
  }
  return problems
}
