/**
 * Inside a submit's transaction, after its places are taken: the shift reminders it plans, one row per slot and
 * reminder, for the slots it now holds a place in (confirmed or waitlisted: a waiting place promoted before the
 * moment is reminded too; the sweep reminds confirmed places only).
 */
import type { ShiftReminderPlan } from "@forms/domain"
import type { SqlClient } from "effect/sql"
import { jsonText } from "../sql/sqlValues.js"

export const scheduleShiftReminders = (
  sql: SqlClient.SqlClient,
  submissionId: string,
  reminders: ReadonlyArray<ShiftReminderPlan>
) =>
  sql`INSERT INTO shift_reminders (submission_id, slot_id, hours_before, to_address)
    SELECT ${submissionId}::uuid, r.plan->>'slot_id', (r.plan->>'hours_before')::integer, r.plan->>'to'
    FROM jsonb_array_elements(${jsonText(reminders)}::jsonb) AS r (plan)
    WHERE EXISTS (SELECT 1 FROM slot_places p WHERE p.submission_id = ${submissionId}::uuid AND p.slot_id = r.plan->>'slot_id')
    ON CONFLICT DO NOTHING`
