/**
 * The messages a submit causes: the confirmation to the address its form names (when that field is active and
 * holds an address that passes the `email` rule) and a notice to each organiser address. Pure: from the form and
 * the submitted, active values only. Text, never HTML; a subject is one line whatever the values hold.
 */
import { byPositionThenSlug, type FormField } from "../forms/FormField.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Values } from "../forms/Values.js"
import { codePointLength, isEmail } from "../rules/types.js"
import { messageLimits } from "./FormMessages.js"
import type { NewMessage } from "./Message.js"
import { withoutMarker } from "./messageLinks.js"
import { fillPlaceholders } from "./placeholders.js"

const has = (values: Values, slug: string): boolean => Object.prototype.hasOwnProperty.call(values, slug)

const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0)

const itemText = (field: FormField, item: unknown): string => {
  if (typeof item === "string") return field.options?.find((o) => o.value === item)?.label ?? item
  if (typeof item === "number" || typeof item === "boolean") return String(item)
  if (typeof item === "object" && item !== null && "name" in item && typeof item.name === "string") return item.name
  return JSON.stringify(item) ?? ""
}

/** A field's value as text: an option by its label, arrays joined by `, `. */
export const valueText = (field: FormField, value: unknown): string =>
  Array.isArray(value) ? value.map((item: unknown) => itemText(field, item)).join(", ") : itemText(field, value)

/** Fields without a section first, then the sections by position; within each, by position then slug. */
const answerOrder = (schema: FormSchema): ReadonlyArray<FormField> => {
  const sections = [...schema.sections].sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const rank = new Map(sections.map((s, i) => [s.id, i + 1]))
  return [...schema.fields].sort((a, b) =>
    (a.section_id === null ? 0 : rank.get(a.section_id) ?? 0) - (b.section_id === null ? 0 : rank.get(b.section_id) ?? 0) ||
    byPositionThenSlug(a, b)
  )
}

/** One `label: value` line per active field with a value. */
export const answersText = (schema: FormSchema, values: Values): string =>
  answerOrder(schema)
    .filter((field) => has(values, field.slug) && !isEmpty(values[field.slug]))
    .map((field) => `${field.label}: ${valueText(field, values[field.slug])}`)
    .join("\n")

// Control characters (line breaks among them) and the Unicode line and paragraph separators.
const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g

/** Subject text: control characters as spaces, at most 200 code points. */
export const subjectText = (text: string): string => {
  const line = text.replace(controls, " ")
  return codePointLength(line) <= messageLimits.subject ? line : Array.from(line).slice(0, messageLimits.subject).join("")
}

const fillWith = (schema: FormSchema, values: Values) => (name: string): string => {
  if (name === "answers") return answersText(schema, values)
  if (name === "form_name") return schema.name
  if (name === "manage_url") return ""
  const field = schema.fields.find((f) => f.slug === name)
  return field === undefined || !has(values, name) || isEmpty(values[name]) ? "" : valueText(field, values[name])
}

/** What a submit records: `values` are the submitted values of the active fields only. */
export const composeSubmitMessages = (
  schema: FormSchema,
  values: Values,
  submissionId: string,
  sending: boolean
): ReadonlyArray<NewMessage> => {
  const messages = schema.messages
  if (messages === undefined) return []
  const status = sending ? "pending" as const : "held" as const
  const out: Array<NewMessage> = []
  const fill = fillWith(schema, values)
  const confirmation = messages.confirmation
  if (confirmation !== undefined) {
    const address = values[confirmation.to_field]
    if (typeof address === "string" && isEmail(address.trim())) {
      out.push({
        kind: "confirmation",
        to: address.trim(),
        subject: subjectText(fillPlaceholders(confirmation.subject, (name) => subjectText(fill(name)))),
        // No text of a template or a value can form a link's marker.
        body: withoutMarker(fillPlaceholders(confirmation.body, fill)),
        status
      })
    }
  }
  for (const to of messages.notify?.to ?? []) {
    if (!isEmail(to)) continue
    out.push({
      kind: "notification",
      to,
      subject: subjectText(`New submission: ${schema.name}`),
      body: withoutMarker(`${answersText(schema, values)}\n\nSubmission: ${submissionId}`),
      status
    })
  }
  return out
}
