/** When reminders are made: the portal's hours before a section's due date, and how many a sweep makes at most. */
import { Context, Layer } from "effect"

export interface RemindersConfigShape {
  /** `PORTAL_REMINDER_HOURS`: a `section_reminder` this many hours before a pending section's `due_at`, each once. */
  readonly portalReminderHours: ReadonlyArray<number>
  /** Reminders made due per sweep and kind (the rest wait for the next sweep). */
  readonly batch: number
}

export const defaultRemindersConfig: RemindersConfigShape = {
  portalReminderHours: [72, 24],
  batch: 200
}

/** Without a layer of its own: the defaults. */
export const RemindersConfig = Context.Reference<RemindersConfigShape>("@forms/domain/RemindersConfig", {
  defaultValue: () => defaultRemindersConfig
})

export const remindersConfigLayer = (config: Partial<RemindersConfigShape> = {}) =>
  Layer.succeed(RemindersConfig, { ...defaultRemindersConfig, ...config })
