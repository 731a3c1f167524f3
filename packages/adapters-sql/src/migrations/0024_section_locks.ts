/**
 * Migration 24: an engagement's contact, and the deadlines and locks of advance sections (CONTRACT §21). `locked`
 * is the lock as an organiser set it (true, false or null); whether a section is locked is computed from it and
 * `locks_at` at each read and in each section write's own statement, never stored.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE engagements ADD COLUMN contact_email text`
  yield* sql`ALTER TABLE advance_sections ADD COLUMN due_at timestamptz, ADD COLUMN locks_at timestamptz,
    ADD COLUMN locked boolean`
  // The overdue filter of the engagements' list: pending sections with a due date, by it.
  yield* sql`CREATE INDEX advance_sections_pending_due_idx ON advance_sections (due_at, engagement_id)
    WHERE status = 'pending' AND due_at IS NOT NULL`
})
