/**
 * Migration 14: the Enrichment port's batch writes (issue 23), so that the event dispatcher's tag sync and
 * identity match of a whole batch of events are one statement each instead of one per event.
 *
 * Each keeps the rules and the locking order of its single twin (migrations 4 and 11): the submissions' row
 * locks first (all of the batch, in id order, so two batches never wait on each other in a cycle), then the
 * contacts' (in id order), then the contacts' tags recomputed by a statement that starts after their locks
 * were taken (a PL/pgSQL function takes a new snapshot per statement), so it sees every committed change and
 * no one else's is pending. A submission named twice in a batch gets its last item.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // p_items: [{ "submission_id": uuid, "tags": [string, …] }, …]
  yield* sql`CREATE FUNCTION forms_set_submission_tags_many(p_items jsonb) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE
      v_contacts uuid[];
    BEGIN
      PERFORM 1 FROM submissions s
        WHERE s.id IN (SELECT (i.value->>'submission_id')::uuid FROM jsonb_array_elements(p_items) AS i (value))
        ORDER BY s.id FOR UPDATE;
      WITH items AS (
          SELECT DISTINCT ON (x.sid) x.sid, x.tags FROM (
            SELECT (i.value->>'submission_id')::uuid AS sid, i.value->'tags' AS tags, i.n
            FROM jsonb_array_elements(p_items) WITH ORDINALITY AS i (value, n)) AS x
          ORDER BY x.sid, x.n DESC),
        updated AS (
          UPDATE submissions s SET tags = items.tags FROM items WHERE s.id = items.sid RETURNING s.contact_id)
      SELECT array_agg(DISTINCT u.contact_id) INTO v_contacts FROM updated u WHERE u.contact_id IS NOT NULL;
      IF v_contacts IS NOT NULL THEN
        PERFORM 1 FROM contacts c WHERE c.id = ANY (v_contacts) ORDER BY c.id FOR UPDATE;
        UPDATE contacts c SET tags = forms_contact_tags(c.id) WHERE c.id = ANY (v_contacts);
      END IF;
    END
    $$`
  // p_items: [{ "organisation_id": text, "key": text, "submission_id": uuid }, …]
  yield* sql`CREATE FUNCTION forms_link_contacts(p_items jsonb) RETURNS void
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE
      v_sids uuid[];
      v_orgs text[];
      v_keys text[];
      v_found uuid[];
      v_previous uuid[];
      v_contacts uuid[];
      v_missing bigint;
    BEGIN
      SELECT array_agg(d.sid ORDER BY d.sid), array_agg(d.org ORDER BY d.sid), array_agg(d.key ORDER BY d.sid)
        INTO v_sids, v_orgs, v_keys
        FROM (SELECT DISTINCT ON (x.sid) x.sid, x.org, x.key FROM (
            SELECT (i.value->>'submission_id')::uuid AS sid, i.value->>'organisation_id' AS org, i.value->>'key' AS key, i.n
            FROM jsonb_array_elements(p_items) WITH ORDINALITY AS i (value, n)) AS x
          ORDER BY x.sid, x.n DESC) AS d;
      IF v_sids IS NULL THEN
        RETURN;
      END IF;
      -- The submissions that exist, locked in id order, and the contacts they are linked to now.
      SELECT array_agg(s.id), array_agg(s.contact_id) INTO v_found, v_previous
        FROM (SELECT s.id, s.contact_id FROM submissions s WHERE s.id = ANY (v_sids) ORDER BY s.id FOR UPDATE) AS s;
      -- DO NOTHING waits for a racing insert of the same key to commit; the next statement then reads its row.
      INSERT INTO contacts (organisation_id, key)
        SELECT DISTINCT u.o, u.k FROM unnest(v_orgs, v_keys) AS u (o, k) ORDER BY u.o, u.k
        ON CONFLICT (organisation_id, key) DO NOTHING;
      SELECT array_agg(c.id ORDER BY u.n), count(*) FILTER (WHERE c.id IS NULL) INTO v_contacts, v_missing
        FROM unnest(v_orgs, v_keys) WITH ORDINALITY AS u (o, k, n)
        LEFT JOIN contacts c ON c.organisation_id = u.o AND c.key = u.k;
      IF v_missing > 0 THEN
        RAISE EXCEPTION 'the contact upsert left no row';
      END IF;
      PERFORM 1 FROM contacts c WHERE c.id = ANY (v_contacts || COALESCE(v_previous, '{}')) ORDER BY c.id FOR UPDATE;
      UPDATE submissions s SET contact_id = l.contact
        FROM unnest(v_sids, v_contacts) AS l (sid, contact)
        WHERE s.id = l.sid AND s.id = ANY (COALESCE(v_found, '{}')) AND s.contact_id IS DISTINCT FROM l.contact;
      UPDATE contacts c SET tags = forms_contact_tags(c.id) WHERE c.id = ANY (v_contacts || COALESCE(v_previous, '{}'));
      -- A link of a submission that no longer exists (erased meanwhile) leaves no contact made for it alone.
      DELETE FROM contacts c USING unnest(v_sids, v_contacts) AS l (sid, contact)
        WHERE c.id = l.contact AND NOT (l.sid = ANY (COALESCE(v_found, '{}')))
          AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.contact_id = c.id);
    END
    $$`
})
