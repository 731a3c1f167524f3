/**
 * Migration 9: the organiser side (CONTRACT §12): API keys (SHA-256 hashes only), the audit log,
 * `created_at` for keyset pages, and time-slot capacities.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Millisecond precision everywhere: a page's cursor carries created_at as epoch ms, exactly.
  for (const table of ["events", "master_artists", "engagements"]) {
    yield* sql.unsafe(`ALTER TABLE ${table}
      ADD COLUMN created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`)
  }
  yield* sql`CREATE INDEX events_page_idx ON events (organisation_id, created_at DESC, (id COLLATE "C") DESC)`
  // Another change may add the same column for shifts (§15): whichever runs first creates it.
  yield* sql`ALTER TABLE time_slots ADD COLUMN IF NOT EXISTS capacity integer CHECK (capacity >= 1)`
  // Ids are text like every fixture id (a fixture key keeps its id); generated ones are UUIDs.
  // prefix: the first 8 characters of the key, for recognising it in `api-key list`.
  yield* sql`CREATE TABLE api_keys (
    id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
    organisation_id text NOT NULL REFERENCES organisations (id) DEFERRABLE INITIALLY DEFERRED,
    name text,
    key_hash text NOT NULL UNIQUE,
    prefix text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
    last_used_at timestamptz,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX api_keys_organisation_idx ON api_keys (organisation_id)`
  // No foreign key to the resource: entries outlive what they name (a deleted event keeps its history).
  yield* sql`CREATE TABLE audit_log (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organisation_id text NOT NULL REFERENCES organisations (id) DEFERRABLE INITIALLY DEFERRED,
    api_key_id text,
    action text NOT NULL,
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX audit_log_page_idx ON audit_log (organisation_id, at DESC, id DESC)`
})
