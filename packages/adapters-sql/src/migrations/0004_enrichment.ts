/**
 * Migration 4: the Enrichment port's two writes as functions, so that each is one statement (one round
 * trip, atomic as a single statement is) instead of a transaction of four to nine statements.
 *
 * Locking, as before: a change to a submission's tags or contact takes the submission's row lock, then
 * the row locks of the contacts involved (in id order). A PL/pgSQL function takes a new snapshot for
 * each statement (READ COMMITTED, VOLATILE), so a contact's tags are recomputed by a statement that
 * starts after its lock was taken: it sees every committed change and no one else's is pending.
 * `SET search_path FROM CURRENT` binds the tables of the schema the migration ran in.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { linkContact0004 } from "./linkContactText.js"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The union of the string tags of the contact's submissions (code point order; readers sort by code unit).
  yield* sql`CREATE FUNCTION forms_contact_tags(p_contact uuid) RETURNS jsonb
    LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
      SELECT COALESCE(jsonb_agg(u.tag ORDER BY u.tag COLLATE "C"), '[]'::jsonb)
      FROM (SELECT DISTINCT e.tag #>> '{}' AS tag
            FROM submissions s CROSS JOIN LATERAL jsonb_array_elements(
              CASE WHEN jsonb_typeof(s.tags) = 'array' THEN s.tags ELSE '[]'::jsonb END) AS e (tag)
            WHERE s.contact_id = p_contact AND jsonb_typeof(e.tag) = 'string') AS u
    $$`
  yield* sql`CREATE FUNCTION forms_set_submission_tags(p_submission uuid, p_tags jsonb) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE
      v_contact uuid;
    BEGIN
      UPDATE submissions SET tags = p_tags WHERE id = p_submission RETURNING contact_id INTO v_contact;
      IF v_contact IS NOT NULL THEN
        PERFORM 1 FROM contacts WHERE id = v_contact FOR UPDATE;
        UPDATE contacts SET tags = forms_contact_tags(v_contact) WHERE id = v_contact;
      END IF;
    END
    $$`
  // p_submission null (or unknown): the contact is found or created and returned, nothing is linked.
  yield* sql.unsafe(linkContact0004)
})
