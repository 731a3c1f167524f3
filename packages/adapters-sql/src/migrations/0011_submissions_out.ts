/**
 * Migration 11: submissions out (CONTRACT §12). Keyset pages of a form's submissions, `contacts.created_at`,
 * and two columns of the outbox filled from the payload by a trigger on every insert (whoever records the
 * event): `submission_id` (erasure strips every payload of a submission through it) and `organisation_id`
 * (the organiser's outbox list is scoped by it). Indexes for the retention sweep. `forms_link_contact` (0004)
 * again, with one change: a link of a submission that no longer exists (erased while its identity match was in
 * flight) leaves no contact made for it alone, so nothing of an erased submission's email survives the race.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { linkContact0011 } from "./linkContactText.js"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE contacts ADD COLUMN created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`
  yield* sql`CREATE INDEX submissions_page_idx ON submissions (schema_id, created_at, (id::text COLLATE "C"))`
  yield* sql`CREATE INDEX submissions_draft_age_idx ON submissions (updated_at) WHERE status = 'draft'`
  yield* sql`CREATE INDEX unique_claims_submission_idx ON unique_claims (submission_id)`
  yield* sql`ALTER TABLE outbox ADD COLUMN submission_id uuid, ADD COLUMN organisation_id text`
  yield* sql`CREATE FUNCTION forms_outbox_owner() RETURNS trigger
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE
      v_text text := NEW.payload->>'submission_id';
    BEGIN
      IF v_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
        NEW.submission_id := v_text::uuid;
      END IF;
      NEW.organisation_id := COALESCE(
        NEW.payload->>'organisation_id',
        (SELECT e.organisation_id FROM engagements e WHERE e.id = NEW.payload->>'engagement_id'),
        (SELECT f.organisation_id FROM submissions s JOIN form_schemas f ON f.id = s.schema_id
          WHERE s.id = NEW.submission_id));
      RETURN NEW;
    END
    $$`
  yield* sql`CREATE TRIGGER outbox_owner BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION forms_outbox_owner()`
  // Rows recorded before this migration: the same rule, once.
  yield* sql`UPDATE outbox SET submission_id = (payload->>'submission_id')::uuid
    WHERE payload->>'submission_id' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`
  yield* sql`UPDATE outbox o SET organisation_id = COALESCE(
      o.payload->>'organisation_id',
      (SELECT e.organisation_id FROM engagements e WHERE e.id = o.payload->>'engagement_id'),
      (SELECT f.organisation_id FROM submissions s JOIN form_schemas f ON f.id = s.schema_id WHERE s.id = o.submission_id))`
  yield* sql`CREATE INDEX outbox_submission_idx ON outbox (submission_id) WHERE submission_id IS NOT NULL`
  yield* sql`CREATE INDEX outbox_organisation_idx ON outbox (organisation_id, created_at DESC)`
  yield* sql`CREATE INDEX outbox_delivered_idx ON outbox (delivered_at) WHERE delivered_at IS NOT NULL`
  yield* sql.unsafe(linkContact0011)
})
