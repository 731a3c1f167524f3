/** Reminders (shifts and portal sections), promotions and portal links: their schedules and texts. */
export * from "./ReminderSubjects.js"
export * from "./Reminders.js"
export * from "./RemindersConfig.js"
export {
  checkedAddress,
  composePortalLink,
  composePromotion,
  composeSectionReminder,
  composeShiftReminder,
  planShiftReminders,
  slotLine
} from "./composeReminders.js"
export { makeRemindersDue } from "./makeRemindersDue.js"
export { portalLinkInput, type PortalLinkInput } from "./portalLinkInput.js"
