/**
 * The `messages` member of a definition body read member by member: its shape only (objects, strings,
 * numbers, known members). What the values may be (lengths, addresses, slugs) is the definition check's.
 */
import { type Body, FieldProblems, has, isObject, isStorable, requiredMembers, unknownMembers } from "../rules/bodyChecks.js"
import type { ConfirmationMessage, FormMessages, NotifyMessage, Reminder } from "./FormMessages.js"

const stringAt = (e: FieldProblems, path: string, value: unknown): string | undefined =>
  isStorable(value) ? value : e.add(path, "invalid", "A string is expected (without U+0000 or unpaired surrogates).")

const confirmation = (e: FieldProblems, path: string, value: unknown): ConfirmationMessage | undefined => {
  if (!isObject(value)) return e.add(path, "invalid", "{ to_field, subject, body } is expected.")
  const p = `${path}.`
  unknownMembers(e, value, ["to_field", "subject", "body"], { prefix: p })
  requiredMembers(e, value, ["to_field", "subject", "body"], { prefix: p })
  const read = (key: string) => (has(value, key) ? stringAt(e, `${p}${key}`, value[key]) : undefined)
  const to_field = read("to_field")
  const subject = read("subject")
  const body = read("body")
  return to_field === undefined || subject === undefined || body === undefined ? undefined : { to_field, subject, body }
}

const notify = (e: FieldProblems, path: string, value: unknown): NotifyMessage | undefined => {
  if (!isObject(value)) return e.add(path, "invalid", "{ to: [addresses] } is expected.")
  unknownMembers(e, value, ["to"], { prefix: `${path}.` })
  requiredMembers(e, value, ["to"], { prefix: `${path}.` })
  if (!has(value, "to")) return undefined
  const to = value["to"]
  if (!Array.isArray(to)) return e.add(`${path}.to`, "invalid", "An array of addresses is expected.")
  const out = to.map((item: unknown, i) => stringAt(e, `${path}.to.${i}`, item))
  return out.every((a) => a !== undefined) ? { to: out as ReadonlyArray<string> } : undefined
}

const reminder = (e: FieldProblems, path: string, value: unknown): Reminder | undefined => {
  if (!isObject(value)) return e.add(path, "invalid", "{ hours_before } is expected.")
  unknownMembers(e, value, ["hours_before"], { prefix: `${path}.` })
  requiredMembers(e, value, ["hours_before"], { prefix: `${path}.` })
  if (!has(value, "hours_before")) return undefined
  const hours = value["hours_before"]
  return typeof hours === "number" && Number.isInteger(hours)
    ? { hours_before: hours }
    : e.add(`${path}.hours_before`, "invalid", "A whole number of hours is expected.")
}

const reminders = (e: FieldProblems, path: string, value: unknown): ReadonlyArray<Reminder> | undefined => {
  if (!Array.isArray(value)) return e.add(path, "invalid", "An array of { hours_before } is expected.")
  const out = value.map((item: unknown, i) => reminder(e, `${path}.${i}`, item))
  return out.every((r) => r !== undefined) ? (out as ReadonlyArray<Reminder>) : undefined
}

/** The member as `FormMessages`, null when null; undefined when a problem was added at `path` or below it. */
export const readMessages = (e: FieldProblems, path: string, value: unknown): FormMessages | null | undefined => {
  if (value === null) return null
  if (!isObject(value)) return e.add(path, "invalid", "null or { confirmation?, notify?, reminders? } is expected.")
  const body: Body = value
  unknownMembers(e, body, ["confirmation", "notify", "reminders"], { prefix: `${path}.` })
  const c = has(body, "confirmation") ? confirmation(e, `${path}.confirmation`, body["confirmation"]) : null
  const n = has(body, "notify") ? notify(e, `${path}.notify`, body["notify"]) : null
  const r = has(body, "reminders") ? reminders(e, `${path}.reminders`, body["reminders"]) : null
  if (c === undefined || n === undefined || r === undefined) return undefined
  return { ...(c === null ? {} : { confirmation: c }), ...(n === null ? {} : { notify: n }), ...(r === null ? {} : { reminders: r }) }
}
