/**
 * Port: the reminders' schedules. Shift reminders are rows recorded by the submit (Submissions.submit); a sweep
 * makes the due ones messages. Section reminders follow the sections' due dates. Each method is one atomic step:
 * the due reminders are read and held (`SKIP LOCKED`), their messages recorded, and each marked made, so a reminder
 * becomes at most one message whatever the number of sweeping processes.
 */
import { Context, type Effect } from "effect"
import type { NewMessage } from "../messages/Message.js"
import type { Unavailable } from "../shared/errors.js"
import type { DueSectionReminder, DueShiftReminder } from "./ReminderSubjects.js"

export class Reminders extends Context.Service<Reminders, {
  /**
   * Makes due the scheduled shift reminders whose moment (`hours_before` the slot starts) is at or before `now`,
   * whose slot has not started and whose submission holds a confirmed place in it: each becomes the message
   * `compose` makes (at most `limit`), marked made. Scheduled reminders of a slot that has started are marked
   * skipped (never sent). A place given up or an erased submission makes nothing. Answers the messages recorded.
   */
  readonly makeShiftRemindersDue: (
    now: number,
    limit: number,
    compose: (due: DueShiftReminder) => NewMessage
  ) => Effect.Effect<number, Unavailable>
  /**
   * For each pending, unlocked section with a `due_at` after `now` of an engagement with a contact: the moments
   * `hours` before `due_at` that are at or before `now` and were after the moment `due_at` was set, each made once
   * per section and due date. When several are due at once, one message (the one nearest the due date) stands
   * for them all. `compose` makes the message. Answers the messages recorded.
   */
  readonly makeSectionRemindersDue: (
    now: number,
    hours: ReadonlyArray<number>,
    limit: number,
    compose: (due: DueSectionReminder) => NewMessage
  ) => Effect.Effect<number, Unavailable>
}>()("@forms/domain/Reminders") {}
