/**
 * Migration 25: volunteer shifts II (CONTRACT §22). Events gain `timezone` (an IANA name, or null: the parent's,
 * else UTC); slots gain their instants `starts_at` and `ends_at`, computed by the application in the event's zone
 * (Temporal's "compatible" disambiguation, shifts/slotInstants.ts in the domain) and recomputed in the transaction
 * that changes a slot or a zone it depends on. Every event had no zone before: existing slots are in UTC, which
 * SQL computes exactly here.
 *
 * Slots gain a sign-up window, `signup_opens_at` and `signup_closes_at` (null close: the slot's start).
 *
 * Waitlists: a slot with a capacity may have `waitlist`. A place is `confirmed` or `waitlisted`; `joined` (a
 * sequence) orders the waitlist by joining, `confirmed_at` orders the confirmed. A waiting place of a slot that has
 * started reads as expired (nothing is written when a slot starts).
 *
 * `forms_take_places` (the submit's one statement for places) locks the chosen slots in id order, then decides
 * each slot's place as the domain's arithmetic does (shifts/placeArithmetic.ts): confirmed when the slot is
 * unlimited, or its confirmed places are below capacity and nobody waits; else waitlisted on a waitlist slot; else
 * `full` (nothing inserted, and the domain refuses the submit). It answers each slot's instants, window and the
 * place, so that overlap, `closed` and `full` are decided on the rows it locked.
 *
 * `forms_promote` is the one statement a change that frees places adds to its transaction (an erasure, a
 * capacity raised, a fixture load): it locks the slots in id order, confirms the earliest waitlisted places by
 * order of joining while the confirmed are below capacity and the slot has not started, and records a
 * `place.promoted` outbox event for each (with its NOTIFY). Locks in id order on every path: any number of
 * processes, never above capacity, never a deadlock between two of them.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE events ADD COLUMN timezone text`
  yield* sql`ALTER TABLE time_slots ADD COLUMN starts_at timestamptz, ADD COLUMN ends_at timestamptz,
    ADD COLUMN signup_opens_at timestamptz, ADD COLUMN signup_closes_at timestamptz`
  yield* sql`UPDATE time_slots SET starts_at = (date + start_time) AT TIME ZONE 'UTC',
    ends_at = ((CASE WHEN end_time > start_time THEN date ELSE date + 1 END) + end_time) AT TIME ZONE 'UTC'`
  yield* sql`ALTER TABLE time_slots ALTER COLUMN starts_at SET NOT NULL, ALTER COLUMN ends_at SET NOT NULL,
    ADD CONSTRAINT time_slots_ends_after_start CHECK (ends_at > starts_at)`
  yield* sql`ALTER TABLE time_slots ADD COLUMN waitlist boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT time_slots_waitlist_capacity CHECK (NOT waitlist OR capacity IS NOT NULL)`
  yield* sql`CREATE SEQUENCE slot_places_joined_seq`
  yield* sql`ALTER TABLE slot_places
    ADD COLUMN status text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'waitlisted')),
    ADD COLUMN joined bigint NOT NULL DEFAULT nextval('slot_places_joined_seq'),
    ADD COLUMN confirmed_at timestamptz`
  yield* sql`UPDATE slot_places p SET confirmed_at = s.submitted_at FROM submissions s WHERE s.id = p.submission_id`
  yield* sql`CREATE INDEX slot_places_waiting_idx ON slot_places (slot_id, joined) WHERE status = 'waitlisted'`
  yield* sql`DROP FUNCTION forms_take_places(uuid, text[])`
  yield* sql`CREATE FUNCTION forms_take_places(p_submission uuid, p_slots text[], p_at timestamptz)
    RETURNS TABLE (id text, event_id text, parent_event_id text, date text, start_time text, end_time text,
                   starts_at double precision, ends_at double precision, signup_opens_at double precision,
                   signup_closes_at double precision, capacity integer, holders integer, waitlist boolean,
                   waitlisted integer, place text)
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM 1 FROM time_slots t WHERE t.id = ANY(p_slots) ORDER BY t.id COLLATE "C" FOR UPDATE;
      RETURN QUERY
        WITH counted AS (
          SELECT t.id,
            (SELECT count(*)::integer FROM slot_places c WHERE c.slot_id = t.id AND c.status = 'confirmed') AS confirmed,
            (SELECT count(*)::integer FROM slot_places w WHERE w.slot_id = t.id AND w.status = 'waitlisted'
              AND t.starts_at > p_at) AS waiting
          FROM time_slots t WHERE t.id = ANY(p_slots)
        ), decided AS (
          SELECT c.id, c.confirmed, c.waiting,
            CASE WHEN t.capacity IS NULL OR (c.confirmed < t.capacity AND c.waiting = 0) THEN 'confirmed'
                 WHEN t.waitlist THEN 'waitlisted' ELSE 'full' END AS place
          FROM counted c JOIN time_slots t ON t.id = c.id
        ), inserted AS (
          INSERT INTO slot_places (slot_id, submission_id, status, confirmed_at)
          SELECT d.id, p_submission, d.place, CASE WHEN d.place = 'confirmed' THEN p_at END
          FROM decided d WHERE d.place <> 'full' ORDER BY d.id COLLATE "C"
          ON CONFLICT DO NOTHING
        )
        SELECT t.id, t.event_id, e.parent_event_id, to_char(t.date, 'YYYY-MM-DD'), to_char(t.start_time, 'HH24:MI'),
          to_char(t.end_time, 'HH24:MI'), (extract(epoch FROM t.starts_at) * 1000)::double precision,
          (extract(epoch FROM t.ends_at) * 1000)::double precision,
          (extract(epoch FROM t.signup_opens_at) * 1000)::double precision,
          (extract(epoch FROM t.signup_closes_at) * 1000)::double precision, t.capacity,
          d.confirmed + (d.place = 'confirmed')::integer, t.waitlist, d.waiting + (d.place = 'waitlisted')::integer,
          d.place
        FROM time_slots t JOIN events e ON e.id = t.event_id JOIN decided d ON d.id = t.id;
    END
    $$`
  yield* sql`CREATE FUNCTION forms_promote(p_slots text[], p_at timestamptz)
    RETURNS TABLE (slot_id text, submission_id uuid)
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    #variable_conflict use_column
    BEGIN
      PERFORM 1 FROM time_slots t WHERE t.id = ANY(p_slots) ORDER BY t.id COLLATE "C" FOR UPDATE;
      RETURN QUERY
        WITH room AS (
          SELECT t.id, t.capacity - (SELECT count(*)::integer FROM slot_places c
            WHERE c.slot_id = t.id AND c.status = 'confirmed') AS n
          FROM time_slots t WHERE t.id = ANY(p_slots) AND t.capacity IS NOT NULL AND t.starts_at > p_at
        ), chosen AS (
          SELECT w.slot_id, w.submission_id FROM room r CROSS JOIN LATERAL (
            SELECT p.slot_id, p.submission_id FROM slot_places p WHERE p.slot_id = r.id AND p.status = 'waitlisted'
            ORDER BY p.joined LIMIT greatest(r.n, 0)) w
        ), promoted AS (
          UPDATE slot_places p SET status = 'confirmed', confirmed_at = p_at FROM chosen c
          WHERE p.slot_id = c.slot_id AND p.submission_id = c.submission_id
          RETURNING p.slot_id, p.submission_id, p.joined
        ), recorded AS (
          INSERT INTO outbox (type, payload, available_at, created_at)
          SELECT 'place.promoted', jsonb_build_object('submission_id', p.submission_id, 'slot_id', p.slot_id,
              'schema_id', s.schema_id, 'organisation_id', f.organisation_id), p_at, p_at
          FROM promoted p JOIN submissions s ON s.id = p.submission_id JOIN form_schemas f ON f.id = s.schema_id
          ORDER BY p.slot_id COLLATE "C", p.joined
        )
        SELECT p.slot_id, p.submission_id FROM promoted p;
      -- The NOTIFY is delivered at commit: a dispatcher listening elsewhere wakes up for the events.
      IF FOUND THEN PERFORM pg_notify('forms_outbox', current_schema()); END IF;
    END
    $$`
})
