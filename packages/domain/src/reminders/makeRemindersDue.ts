/**
 * One sweep of the reminders: shift reminders and section reminders whose moment has come become messages (`held`
 * without a mail server, like every message). Run by every process; the store's step makes each at most once.
 */
import { Clock, Effect } from "effect"
import { MessagesConfig } from "../messages/MessagesConfig.js"
import { composeSectionReminder, composeShiftReminder } from "./composeReminders.js"
import { Reminders } from "./Reminders.js"
import { RemindersConfig } from "./RemindersConfig.js"

/** Answers how many messages the sweep recorded. */
export const makeRemindersDue = Effect.fn("reminders.makeDue")(function*() {
  const reminders = yield* Reminders
  const { sending } = yield* MessagesConfig
  const config = yield* RemindersConfig
  const now = yield* Clock.currentTimeMillis
  const shifts = yield* reminders.makeShiftRemindersDue(now, config.batch, (due) => composeShiftReminder(due, sending))
  const sections = config.portalReminderHours.length === 0
    ? 0
    : yield* reminders.makeSectionRemindersDue(now, config.portalReminderHours, config.batch, (due) =>
      composeSectionReminder(due, sending))
  return shifts + sections
})
