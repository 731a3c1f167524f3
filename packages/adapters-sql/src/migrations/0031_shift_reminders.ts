/**
 * Migration 31: shift reminders (issue 38). A submit of a form that asks for reminders records one row per slot it
 * takes a place in and reminder, to the confirmation address, `scheduled`. A sweep makes a row `made` (recording
 * its message in the same step) once its moment, `hours_before` the slot's `starts_at`, has come while the slot
 * has not started and the submission holds a confirmed place in it; a row still scheduled when its slot starts is
 * `skipped`. The moment is read from the slot at each sweep, so a slot moved by an organiser moves its reminders.
 * A submission's reminders go with it (erasure, retention).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE shift_reminders (
    submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    slot_id text NOT NULL REFERENCES time_slots (id) ON DELETE CASCADE,
    hours_before integer NOT NULL CHECK (hours_before BETWEEN 1 AND 720),
    to_address text NOT NULL,
    state text NOT NULL DEFAULT 'scheduled' CHECK (state IN ('scheduled', 'made', 'skipped')),
    message_id uuid,
    settled_at timestamptz,
    PRIMARY KEY (submission_id, slot_id, hours_before)
  )`
  yield* sql`CREATE INDEX shift_reminders_scheduled_idx ON shift_reminders (slot_id) WHERE state = 'scheduled'`
})
