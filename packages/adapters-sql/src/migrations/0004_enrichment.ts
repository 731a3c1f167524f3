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
  yield* sql`CREATE FUNCTION forms_link_contact(p_organisation text, p_key text, p_submission uuid) RETURNS contacts
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE
      v_found boolean := false;
      v_previous uuid;
      v_contact uuid;
      v_row contacts;
    BEGIN
      IF p_submission IS NOT NULL THEN
        SELECT s.contact_id INTO v_previous FROM submissions s WHERE s.id = p_submission FOR UPDATE;
        v_found := FOUND;
      END IF;
      -- DO NOTHING waits for a racing insert of the same key to commit; the next statement then reads its row.
      INSERT INTO contacts (organisation_id, key) VALUES (p_organisation, p_key)
        ON CONFLICT (organisation_id, key) DO NOTHING;
      SELECT c.id INTO v_contact FROM contacts c WHERE c.organisation_id = p_organisation AND c.key = p_key;
      IF v_contact IS NULL THEN
        RAISE EXCEPTION 'the contact upsert left no row';
      END IF;
      PERFORM 1 FROM contacts c WHERE c.id IN (v_contact, v_previous) ORDER BY c.id FOR UPDATE;
      IF v_found AND v_previous IS DISTINCT FROM v_contact THEN
        UPDATE submissions s SET contact_id = v_contact WHERE s.id = p_submission;
        IF v_previous IS NOT NULL THEN
          UPDATE contacts c SET tags = forms_contact_tags(v_previous) WHERE c.id = v_previous;
        END IF;
      END IF;
      UPDATE contacts c SET tags = forms_contact_tags(v_contact) WHERE c.id = v_contact RETURNING c.* INTO v_row;
      RETURN v_row;
    END
    $$`
})
