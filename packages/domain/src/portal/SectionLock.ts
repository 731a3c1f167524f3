/**
 * Deadlines and locks of advance sections (CONTRACT §21): a section is locked when `locked` is true, or `locked`
 * is null and `locks_at` has passed (`locked: false` keeps it open whatever `locks_at` says); it is overdue
 * while pending with `due_at` passed. Both are computed for an instant, never stored: a `locks_at` passing
 * locks the section at that instant on every read and write, with no sweep.
 */
import { Schema } from "effect"
import type { NewOutboxEvent } from "../events/Outbox.js"
import { sectionLocked, sectionReopened } from "../events/LifecycleEvents.js"

/** What an organiser set on a section: epoch ms or null, and the lock setting (true, false or null). */
export const SectionSchedule = Schema.Struct({
  due_at: Schema.NullOr(Schema.Number),
  locks_at: Schema.NullOr(Schema.Number),
  /** `locked` as set: true (locked by hand), false (kept open), null (by `locks_at`). */
  lock_setting: Schema.NullOr(Schema.Boolean)
})
export type SectionSchedule = typeof SectionSchedule.Type

/** The schedule of a section nobody has set anything on. */
export const noSchedule: SectionSchedule = { due_at: null, locks_at: null, lock_setting: null }

/** Whether the section is locked at `now` (epoch ms): `locks_at` counts from its own instant on. */
export const isLockedAt = (schedule: SectionSchedule, now: number): boolean =>
  schedule.lock_setting ?? (schedule.locks_at !== null && schedule.locks_at <= now)

/** Whether a section with `status` is overdue at `now`: pending, with `due_at` passed. */
export const isOverdueAt = (status: "pending" | "submitted", schedule: SectionSchedule, now: number): boolean =>
  status === "pending" && schedule.due_at !== null && schedule.due_at < now

/** A change of some of the schedule's members (absent: kept). */
export interface SchedulePatch {
  readonly due_at?: number | null
  readonly locks_at?: number | null
  readonly lock_setting?: boolean | null
}

export const applySchedule = (schedule: SectionSchedule, patch: SchedulePatch): SectionSchedule => ({
  due_at: patch.due_at === undefined ? schedule.due_at : patch.due_at,
  locks_at: patch.locks_at === undefined ? schedule.locks_at : patch.locks_at,
  lock_setting: patch.lock_setting === undefined ? schedule.lock_setting : patch.lock_setting
})

/**
 * The event an organiser's change of a section's schedule records at `now`: `section.locked` when it locks the
 * section, `section.reopened` when it opens a locked one, none when the state stays (whichever member changed).
 */
export const lockTransition = (
  ids: { readonly engagement_id: string; readonly section_id: string },
  before: SectionSchedule,
  after: SectionSchedule,
  now: number
): NewOutboxEvent | null => {
  const was = isLockedAt(before, now)
  const is = isLockedAt(after, now)
  if (was === is) return null
  return is ? sectionLocked(ids) : sectionReopened(ids)
}
