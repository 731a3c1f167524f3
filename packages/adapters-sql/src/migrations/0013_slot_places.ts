/**
 * Migration 13: volunteer shifts (CONTRACT §15). `slot_places` holds one row per place a submitted submission
 * holds; deleting the submission (erasure, §12) deletes its places, and a held slot cannot be deleted (IN_USE).
 *
 * `forms_take_places` takes a submission's places in one statement (one round trip, inside the submit's
 * transaction): it locks the chosen slots' rows in id order (so two submits choosing the same slots in
 * different orders never deadlock), inserts the places, and answers each chosen slot with its holders
 * counted after the insert. A PL/pgSQL function takes a new snapshot for each statement (READ COMMITTED,
 * VOLATILE), so the insert and the count start after the locks were taken: they see every place committed
 * by the submits that held those locks before, and no other place of those slots is pending. The domain
 * decides on the answer (capacity, `in`, `overlap`); a refusal rolls the transaction back, places included.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE slot_places (
    slot_id text NOT NULL REFERENCES time_slots (id),
    submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    PRIMARY KEY (slot_id, submission_id)
  )`
  yield* sql`CREATE INDEX slot_places_submission_idx ON slot_places (submission_id)`
  yield* sql`CREATE FUNCTION forms_take_places(p_submission uuid, p_slots text[])
    RETURNS TABLE (id text, event_id text, parent_event_id text, date text, start_time text, end_time text,
                   capacity integer, holders integer)
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM 1 FROM time_slots t WHERE t.id = ANY(p_slots) ORDER BY t.id COLLATE "C" FOR UPDATE;
      INSERT INTO slot_places (slot_id, submission_id)
        SELECT t.id, p_submission FROM time_slots t WHERE t.id = ANY(p_slots)
        ON CONFLICT DO NOTHING;
      RETURN QUERY
        SELECT t.id, t.event_id, e.parent_event_id, to_char(t.date, 'YYYY-MM-DD'), to_char(t.start_time, 'HH24:MI'),
          to_char(t.end_time, 'HH24:MI'), t.capacity,
          (SELECT count(*)::integer FROM slot_places p WHERE p.slot_id = t.id)
        FROM time_slots t JOIN events e ON e.id = t.event_id
        WHERE t.id = ANY(p_slots);
    END
    $$`
})
