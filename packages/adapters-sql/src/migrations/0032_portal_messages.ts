/**
 * Migration 32: the portal's messages (issue 34 with 38); a message's engagement (a mailed portal link, a section
 * reminder) is migration 29's `engagement_id`. `due_set_at` is when a section's `due_at` was last set: a reminder
 * moment already past then is never made. `section_reminders` holds each reminder made, per section, due date and
 * hours before it, so each is made at most once (its primary key orders racing sweeps).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE advance_sections ADD COLUMN due_set_at timestamptz`
  // Due dates set before this migration: the moments already past now are skipped.
  yield* sql`UPDATE advance_sections SET due_set_at = now() WHERE due_at IS NOT NULL`
  yield* sql`CREATE TABLE section_reminders (
    section_id text NOT NULL REFERENCES advance_sections (id) ON DELETE CASCADE,
    due_at timestamptz NOT NULL,
    hours_before integer NOT NULL,
    message_id uuid,
    made_at timestamptz NOT NULL,
    PRIMARY KEY (section_id, due_at, hours_before)
  )`
})
