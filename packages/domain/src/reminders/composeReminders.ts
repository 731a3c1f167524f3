/**
 * The texts of reminders, promotions and portal links. Pure: from the rows read by the store and the page URL the
 * route made. Plain text, never HTML; a subject is one line whatever a name holds (`subjectText`); an address is
 * used only when it passes the `email` rule.
 */
import type { FormSchema } from "../forms/FormSchema.js"
import type { Values } from "../forms/Values.js"
import { subjectText } from "../messages/composeMessages.js"
import type { NewMessage } from "../messages/Message.js"
import { isEmail } from "../rules/types.js"
import type { DueSectionReminder, DueShiftReminder, PromotedPlace, ShiftReminderPlan, SlotText } from "./ReminderSubjects.js"

const statusOf = (sending: boolean) => (sending ? "pending" as const : "held" as const)

/** An address from a value only when it passes the `email` rule (trimmed), else undefined. */
export const checkedAddress = (value: unknown): string | undefined =>
  typeof value === "string" && isEmail(value.trim()) ? value.trim() : undefined

/** `Name: 2027-08-20 08:00–12:00 (Europe/Amsterdam)`. */
export const slotLine = (slot: SlotText): string =>
  `${slot.name}: ${slot.date} ${slot.start_time}–${slot.end_time} (${slot.timezone})`

/**
 * The reminders a submit schedules: one per slot chosen and reminder of the form, to the confirmation address,
 * when the form asks for reminders and that address is active and passes the `email` rule. `values` are the
 * submitted, active values.
 */
export const planShiftReminders = (
  schema: FormSchema,
  values: Values,
  slotIds: ReadonlyArray<string>
): ReadonlyArray<ShiftReminderPlan> => {
  const reminders = schema.messages?.reminders ?? []
  const confirmation = schema.messages?.confirmation
  if (reminders.length === 0 || confirmation === undefined || slotIds.length === 0) return []
  const to = checkedAddress(values[confirmation.to_field])
  if (to === undefined) return []
  const hours = [...new Set(reminders.map((r) => r.hours_before))]
  return slotIds.flatMap((slot_id) => hours.map((hours_before) => ({ slot_id, hours_before, to })))
}

export const composeShiftReminder = (due: DueShiftReminder, sending: boolean): NewMessage => ({
  kind: "reminder",
  to: due.to,
  subject: subjectText(`Reminder: ${due.slot.name} (${due.form_name})`),
  body: `This is a reminder of your shift for ${due.form_name}.\n\n${slotLine(due.slot)}\n`,
  status: statusOf(sending)
})

/** The `promotion` message of a place just confirmed; none when the form asks for no confirmation or the address fails. */
export const composePromotion = (place: PromotedPlace, sending: boolean): NewMessage | undefined => {
  if (place.to_field === null) return undefined
  const to = checkedAddress(place.to_value)
  if (to === undefined) return undefined
  return {
    kind: "promotion",
    to,
    subject: subjectText(`Your place is confirmed: ${place.slot.name} (${place.form_name})`),
    body: `A place on the waitlist of ${place.form_name} has come free: your place is now confirmed.\n\n${slotLine(place.slot)}\n`,
    status: statusOf(sending)
  }
}

/** `2027-08-20 08:00 UTC`. */
const utcText = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`

export const composeSectionReminder = (due: DueSectionReminder, sending: boolean): NewMessage => ({
  kind: "section_reminder",
  to: due.to,
  subject: subjectText(`Due ${utcText(due.due_at)}: ${due.section_name} (${due.event_name})`),
  body: `The section "${due.section_name}" of the advance of ${due.artist_name} for ${due.event_name} is due on ` +
    `${utcText(due.due_at)} and has not been sent yet. Please fill it in with the portal link you were sent.\n`,
  status: statusOf(sending)
})

/** The `portal_link` message: the portal page's URL, to the address the organiser gave. */
export const composePortalLink = (to: string, pageUrl: string, sending: boolean): NewMessage => ({
  kind: "portal_link",
  to,
  subject: "Your artist portal link",
  body: `Your artist portal: ${pageUrl}\n\nThis link is personal; a new link replaces it.\n`,
  status: statusOf(sending)
})
